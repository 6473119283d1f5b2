/**
 * Server messages are the spec's texts (English where the spec gives
 * English, docs/api.md#errors); pages show them in the chosen language through this
 * map. A message without an entry is shown as it came.
 */
const MESSAGE_KEYS: Record<string, string> = {
  'Email and password are required': 'login.errors.required',
  'Authenticator code is required': 'login.errors.codeRequired',
  'Invalid authenticator code': 'login.errors.invalidCode',
  'Invalid TOTP code': 'login.errors.invalidTotp',
  'Invalid verification code': 'login.errors.invalidVerification',
  'Login failed': 'login.errors.failed',
  'Failed to setup TOTP': 'login.errors.setupFailed',
  'Invalid email or password': 'login.errors.invalidCredentials',
  'Too many attempts. Try again later.': 'login.errors.tooManyAttempts',
  'Sign-in expired. Please sign in again.': 'login.errors.expired',
  'This link is invalid or has expired': 'recovery.errors.invalidLink',
  'Too many password reset attempts. Try again later.': 'recovery.errors.tooManyResets',
  'Invalid email address': 'recovery.errors.invalidEmail',
  Unauthorized: 'unauthorized.title',
  Forbidden: 'forbidden.title',
  'Contains characters that are not allowed': 'validation.invalidCharacters',
};

export function translateMessage(t: (key: string) => string, message: string): string {
  const key = MESSAGE_KEYS[message];
  return key ? t(key) : message;
}
