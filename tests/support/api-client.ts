import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { freshTotpCode } from './totp.ts';

/**
 * A signed-in API session for the end-to-end tests: fetch with a cookie jar
 * of one cookie (the session), as a browser would send it.
 */
export class ApiClient {
  cookie = '';
  constructor(readonly baseUrl: string = inject('baseUrl')) {}

  async request(method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${this.baseUrl}${urlPath}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(this.cookie ? { Cookie: this.cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair] = setCookie.split(';');
      if (pair.startsWith('finflow_session=')) this.cookie = /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(setCookie) ? '' : pair;
    }
    const text = await response.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: response.status, headers: response.headers, json: json as Record<string, unknown> & unknown[], text };
  }

  get = (urlPath: string) => this.request('GET', urlPath);
  post = (urlPath: string, body?: unknown) => this.request('POST', urlPath, body);
  put = (urlPath: string, body?: unknown) => this.request('PUT', urlPath, body);

  /** Password, then the authenticator: set up on first sign-in (secret kept in `secrets`), a fresh code afterwards. */
  async signIn(email: string, password: string, secrets: SecretStore): Promise<void> {
    const login = await this.post('/api/auth/login', { email, password });
    if (login.status !== 200) throw new Error(`login ${login.status}: ${login.text}`);
    if (login.json.needsTotpSetup) {
      const setup = await this.post('/api/auth/totp/setup');
      const secret = String(setup.json.manualKey);
      secrets.set(email, secret);
      const verified = await this.post('/api/auth/totp/verify-setup', { totpCode: await freshTotpCode(secret) });
      if (verified.status !== 200) throw new Error(`verify-setup ${verified.status}: ${verified.text}`);
    } else if (login.json.requiresTotp) {
      const secret = secrets.get(email);
      if (!secret) throw new Error(`no TOTP secret known for ${email}`);
      const verified = await this.post('/api/auth/verify-otp', { otpCode: await freshTotpCode(secret) });
      if (verified.status !== 200) throw new Error(`verify-otp ${verified.status}: ${verified.text}`);
    }
  }
}

/** TOTP secrets of the test users, kept in the app's data folder so every test file of the run can sign in again. */
export class SecretStore {
  private readonly file = path.join(inject('dataDir'), 'e2e-totp-secrets.json');
  private read(): Record<string, string> {
    return fs.existsSync(this.file) ? JSON.parse(fs.readFileSync(this.file, 'utf8')) : {};
  }
  get(email: string): string | undefined {
    return this.read()[email];
  }
  set(email: string, secret: string) {
    fs.writeFileSync(this.file, JSON.stringify({ ...this.read(), [email]: secret }));
  }
}

/**
 * The super_admin that the run's `npm start` created, signed in. The session
 * is shared by every test file of the run (kept in the data folder): each new
 * sign-in would use up a TOTP time step, and the next one may have to wait
 * for the clock. A test that signs this session out must use its own.
 */
export async function signInAsAdmin(): Promise<ApiClient> {
  const file = path.join(inject('dataDir'), 'e2e-admin-session');
  const client = new ApiClient();
  if (fs.existsSync(file)) {
    client.cookie = fs.readFileSync(file, 'utf8');
    if ((await client.get('/api/auth/user')).status === 200) return client;
  }
  client.cookie = '';
  await client.signIn(inject('adminEmail'), inject('adminPassword'), new SecretStore());
  fs.writeFileSync(file, client.cookie);
  return client;
}
