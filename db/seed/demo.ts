import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { issueFeeEInvoices } from '../../app/einvoices/outgoing.server.ts';
import { getObjectStore, type ObjectStore } from '../../app/storage/object-store.server.ts';
import {
  centsToDecimalString,
  centsToNumber,
  factoringFeeCents,
  percentOfCents,
  sumCents,
  toCents,
} from '../../app/utils/money.ts';
import { croatianIban, oibCheckDigit } from '../../app/utils/validation.ts';
import {
  ensureReferenceData,
  insertMissingReferenceData,
  REFERENCE_INTEGRATIONS,
  REFERENCE_TEMPLATES,
  REFERENCE_WORKFLOWS,
  type ReferenceRowIds,
} from '../reference-data.ts';
import type { WorkflowType } from '../../app/workflows/schemas.ts';

/**
 * The demo book: a Croatian factoring company's back office after about
 * eighteen months of business, so every screen has something true to show.
 *
 * Deterministic: one seeded PRNG draws every value, in a fixed order, and all
 * dates are whole-day offsets from today (UTC), so every run produces the same
 * book shifted to look current. Only the UUIDs (and the database's own
 * defaults, such as email tracking tokens) differ between runs.
 *
 * Consistent: the figures agree with each other the way the domain rules
 * would have left them (DESIGN §7, §9): advances and fees from the agreement,
 * used credit = open advances, paid invoices covered by confirmed payments,
 * risk categories from scores, a task behind every waiting workflow step.
 *
 * Written with plain multi-row INSERTs (not the models) in one transaction.
 * It builds on the reference data every install has (db/reference-data.ts):
 * its workflow instances run the reference definitions, its mail goes out
 * with the reference templates (plus two manual ones and a retired one), and
 * it gives the reference integrations their history.
 */

export interface SeedDemoOptions {
  log?: (line: string) => void;
  /** The day the book should look current on; defaults to now. */
  now?: Date;
  /** Where the documents' PDF files go; defaults to the store in DATA_DIR. */
  objectStore?: ObjectStore;
}

// Any fixed numbers: the PRNG seed, and an advisory lock so two starting processes cannot both seed.
const PRNG_SEED = 20_261_122;
const SEED_LOCK = 7_320_113;
/** When the book's FinFlow was installed: before anything in it happened. */
const INSTALLED_DAYS_AGO = 800;

export async function seedDemo(sequelize: Sequelize, options: SeedDemoOptions = {}): Promise<{ seeded: boolean }> {
  const log = options.log ?? (() => {});
  const store = options.objectStore ?? getObjectStore();
  const started = Date.now();

  const counts = await sequelize.transaction(async (transaction) => {
    await sequelize.query(`SELECT pg_advisory_xact_lock(${SEED_LOCK})`, { transaction });
    const [[existing]] = (await sequelize.query('SELECT EXISTS (SELECT 1 FROM clients) AS present', {
      transaction,
    })) as [Array<{ present: boolean }>, unknown];
    if (existing.present) return undefined;

    const clock = new Clock(options.now ?? new Date());
    // Already installed by db/prepare.ts on a start; here for a database that was only migrated (the tests).
    await ensureReferenceData(sequelize, { transaction, at: date(clock.midnight - INSTALLED_DAYS_AGO * DAY + 8 * HOUR) });
    // The book is empty, so it is still install time: a kind staff removed since is put back for the book to use.
    const { ids: reference } = await insertMissingReferenceData(sequelize, transaction);
    const staff = await insertStaff(sequelize, transaction, clock);
    const book = buildBook(new Random(PRNG_SEED), clock, staff, reference);

    // Files first: a committed document row must never point at a missing file.
    for (const file of book.files) {
      const stored = await store.put(file.bytes, { contentType: 'application/pdf' });
      Object.assign(file.row, { storage_key: stored.key, checksum: stored.checksum, size: stored.size });
    }

    for (const [table, rows] of book.tables) await insertRows(sequelize, transaction, table, rows);
    for (const [table, rows] of book.updates) await updateRows(sequelize, transaction, table, rows);
    const einvoices = await issueDemoFeeEInvoices(sequelize, transaction);
    // Only the demo users this run created; an existing account keeps its own history.
    for (const [id, at] of book.lastLogins) {
      if (staff.inserted.has(id)) {
        await sequelize.query('UPDATE users SET last_login_at = $1 WHERE id = $2', {
          bind: [date(at), id],
          transaction,
        });
      }
    }
    return [...book.tables.map(([table, rows]) => `${rows.length} ${table}`), `${einvoices} outgoing_einvoices`];
  });

  if (!counts) {
    log('skipped: the database already has clients');
    return { seeded: false };
  }
  log(`inserted ${counts.join(', ')} in ${Date.now() - started} ms`);
  return { seeded: true };
}

/**
 * The fee e-invoice of every financed or paid invoice, issued by the same
 * function as a financing issues it (app/einvoices/outgoing.server.ts), in
 * the order they were financed so the yearly numbers follow the calendar.
 * Their sending is history here, as the rest of the book is: delivered a
 * couple of minutes after issue with the id the sandbox intermediary gives a
 * document, except the newest, whose sending failed (the intermediary's 503
 * that the integration log shows), waiting for 'Pošalji ponovno'.
 */
async function issueDemoFeeEInvoices(sequelize: Sequelize, transaction: Transaction): Promise<number> {
  const financed = await sequelize.query<{ id: string }>(
    `SELECT i.id FROM invoices i JOIN clients c ON c.id = i.client_id
      WHERE i.status IN ('financed', 'paid') ORDER BY i.financed_at, c.oib, i.invoice_number`,
    { type: QueryTypes.SELECT, transaction },
  );
  // Financings before e-invoices began (E_INVOICING_FROM) get none.
  const issued = await issueFeeEInvoices(
    financed.map(({ id }) => id),
    transaction,
    { send: false },
  );
  await sequelize.query(
    `UPDATE outgoing_einvoices
        SET status = 'delivered', document_id = 'EINV-' || left(ubl_sha256, 20), attempts = 1,
            sent_at = least(issued_at + interval '2 minutes', now())`,
    { transaction },
  );
  await sequelize.query(
    `UPDATE outgoing_einvoices
        SET status = 'failed', document_id = NULL, sent_at = NULL, attempts = 6,
            error = 'E-računi EN 16931: POST /documents answered HTTP 503'
      WHERE id = (SELECT id FROM outgoing_einvoices ORDER BY issued_at DESC, number DESC LIMIT 1)`,
    { transaction },
  );
  return issued.filter((einvoice) => einvoice !== null).length;
}

// ---------------------------------------------------------------------------
// Plumbing

type Row = Record<string, unknown>;

/** Multi-row INSERTs with bind parameters, chunked below PostgreSQL's 65,535-parameter limit. */
async function insertRows(sequelize: Sequelize, transaction: Transaction, table: string, rows: Row[]) {
  if (rows.length === 0) return;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const perChunk = Math.max(1, Math.floor(30_000 / columns.length));
  for (let start = 0; start < rows.length; start += perChunk) {
    const values: unknown[] = [];
    const tuples = rows.slice(start, start + perChunk).map((row) => {
      const placeholders = columns.map((column) => {
        const value = row[column];
        values.push(value === undefined ? null : value);
        return `$${values.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    await sequelize.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, {
      bind: values,
      transaction,
    });
  }
}

/**
 * Gives existing rows (the reference data) the book's history. The
 * set_updated_at trigger would stamp them with today; it is off for these few
 * statements, inside the seed's transaction.
 */
async function updateRows(sequelize: Sequelize, transaction: Transaction, table: string, rows: Row[]) {
  await sequelize.query(`ALTER TABLE ${table} DISABLE TRIGGER ${table}_set_updated_at`, { transaction });
  for (const { id, ...values } of rows) {
    const columns = Object.keys(values);
    await sequelize.query(
      `UPDATE ${table} SET ${columns.map((column, index) => `${column} = $${index + 1}`).join(', ')} WHERE id = $${columns.length + 1}`,
      { bind: [...columns.map((column) => (values[column] === undefined ? null : values[column])), id], transaction },
    );
  }
  await sequelize.query(`ALTER TABLE ${table} ENABLE TRIGGER ${table}_set_updated_at`, { transaction });
}

/** mulberry32: small, fast and the same on every platform, which is all a demo book needs. */
class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  /** A value by weight: weighted(['a', 3], ['b', 1]) is 'a' three times in four. */
  weighted<T>(...entries: ReadonlyArray<readonly [T, number]>): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let draw = this.next() * total;
    for (const [value, weight] of entries) {
      draw -= weight;
      if (draw < 0) return value;
    }
    return entries[entries.length - 1][0];
  }
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  }
  digits(count: number): string {
    let text = '';
    for (let i = 0; i < count; i++) text += String(this.int(0, 9));
    return text;
  }
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Whole days back from today's UTC midnight; nothing that happened is ever later than now. */
class Clock {
  readonly now: number;
  readonly midnight: number;
  constructor(now: Date) {
    this.now = now.getTime();
    this.midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  }
  /** A moment `daysAgo` days back, during Croatian office hours. */
  at(daysAgo: number, random: Random): number {
    return this.past(this.midnight - daysAgo * DAY + random.int(7 * 60, 16 * 60) * MINUTE);
  }
  past(ms: number): number {
    return Math.min(ms, this.now - MINUTE);
  }
  /** Staff act in office hours (07:00–16:00 UTC): a moment outside them moves to the next morning. */
  office(ms: number): number {
    const midnight = Math.floor(ms / DAY) * DAY;
    const minutes = Math.floor((ms - midnight) / MINUTE);
    if (minutes < 7 * 60) return midnight + 7 * HOUR + (minutes % 60) * MINUTE;
    if (minutes > 16 * 60) return midnight + DAY + 7 * HOUR + (minutes % 60) * MINUTE;
    return ms;
  }
  /** The calendar day ('YYYY-MM-DD') of a moment. */
  day(ms: number): string {
    return new Date(ms).toISOString().slice(0, 10);
  }
  /** The calendar day `daysAgo` back (negative: ahead). */
  dayAgo(daysAgo: number): string {
    return this.day(this.midnight - daysAgo * DAY);
  }
}

const date = (ms: number) => new Date(ms);
const json = (value: unknown) => JSON.stringify(value);
const money = centsToDecimalString;
const daysBetween = (fromDay: string, toDay: string) => Math.round((Date.parse(toDay) - Date.parse(fromDay)) / DAY);
const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(max, value));

// ---------------------------------------------------------------------------
// Croatian reference data

// [city, postal code, phone area code, streets]
const CITIES: ReadonlyArray<readonly [string, string, string, readonly string[]]> = [
  [
    'Zagreb',
    '10000',
    '1',
    [
      'Ilica',
      'Savska cesta',
      'Radnička cesta',
      'Heinzelova ulica',
      'Ulica grada Vukovara',
      'Slavonska avenija',
      'Zagrebačka avenija',
    ],
  ],
  [
    'Split',
    '21000',
    '21',
    ['Domovinskog rata', 'Poljička cesta', 'Ulica Ruđera Boškovića', 'Put Supavla', 'Vukovarska ulica'],
  ],
  [
    'Rijeka',
    '51000',
    '51',
    ['Riva', 'Ulica Milutina Barača', 'Zvonimirova ulica', 'Krešimirova ulica', 'Ulica Franje Čandeka'],
  ],
  ['Osijek', '31000', '31', ['Europska avenija', 'Vukovarska cesta', 'Ulica Hrvatske Republike', 'Ulica Svetog Roka']],
  ['Zadar', '23000', '23', ['Ulica Ivana Mažuranića', 'Put Murvice', 'Ulica Bartula Kašića', 'Obala kneza Branimira']],
  ['Pula', '52100', '52', ['Istarska ulica', 'Flanatička ulica', 'Ulica Giardini', 'Šijanska cesta']],
  ['Varaždin', '42000', '42', ['Zagrebačka ulica', 'Optujska ulica', 'Ulica Vladimira Nazora', 'Koprivnička ulica']],
  ['Karlovac', '47000', '47', ['Ulica Ivana Meštrovića', 'Banija', 'Vukovarska ulica']],
  ['Slavonski Brod', '35000', '35', ['Ulica Petra Krešimira IV.', 'Trg pobjede', 'Ulica dr. Ante Starčevića']],
  ['Šibenik', '22000', '22', ['Stjepana Radića', 'Ulica kralja Zvonimira', 'Put groblja']],
  ['Dubrovnik', '20000', '20', ['Vukovarska ulica', 'Ulica dr. Ante Starčevića', 'Obala Stjepana Radića']],
  ['Sisak', '44000', '44', ['Ulica kralja Tomislava', 'Rimska ulica', 'Capraška ulica']],
  ['Čakovec', '40000', '40', ['Ulica bana Josipa Jelačića', 'Zrinsko-Frankopanska ulica', 'Ulica Matice hrvatske']],
  ['Vukovar', '32000', '32', ['Ulica Josipa Jurja Strossmayera', 'Ulica Dr. Franje Tuđmana']],
  ['Koprivnica', '48000', '48', ['Ulica Ante Starčevića', 'Ulica Pavla Sudete', 'Zrinski trg']],
  ['Bjelovar', '43000', '43', ['Ulica Petra Preradovića', 'Ulica Ivana Viteza Trnskog']],
  ['Velika Gorica', '10410', '1', ['Zagrebačka ulica', 'Ulica kneza Ljudevita Posavskog']],
  ['Samobor', '10430', '1', ['Ulica Andrije Hebranga', 'Perkovčeva ulica']],
  ['Požega', '34000', '34', ['Ulica Matije Gupca', 'Vukovarska ulica']],
  ['Virovitica', '33000', '33', ['Ulica Ljudevita Gaja', 'Ulica Matije Gupca']],
  ['Gospić', '53000', '53', ['Ulica budačka', 'Ulica dr. Franje Tuđmana']],
];

// The client companies and their home cities.
const CLIENT_COMPANIES: ReadonlyArray<readonly [string, string]> = [
  ['Jadran Logistika d.o.o.', 'Split'],
  ['Panonija Agrar d.o.o.', 'Osijek'],
  ['Dalmacija Građenje d.o.o.', 'Split'],
  ['Kvarner Ambalaža d.o.o.', 'Rijeka'],
  ['Istra Vina d.o.o.', 'Pula'],
  ['Zagorje Metal d.o.o.', 'Varaždin'],
  ['Sava Elektro d.o.o.', 'Zagreb'],
  ['Velebit Drvo d.o.o.', 'Gospić'],
  ['Slavonija Mlin d.d.', 'Slavonski Brod'],
  ['Medvednica Soft d.o.o.', 'Zagreb'],
  ['Lika Prijevoz d.o.o.', 'Karlovac'],
  ['Neretva Voće d.o.o.', 'Dubrovnik'],
  ['Adria Tekstil d.o.o.', 'Zadar'],
  ['Biokovo Kamen d.o.o.', 'Split'],
  ['Drava Plast d.o.o.', 'Koprivnica'],
  ['Krka Energija d.o.o.', 'Šibenik'],
  ['Podravina Hrana d.d.', 'Koprivnica'],
  ['Učka Turizam d.o.o.', 'Rijeka'],
  ['Posavina Strojevi d.o.o.', 'Sisak'],
  ['Mreža Informatika d.o.o.', 'Zagreb'],
  ['Kantrida Brodoservis d.o.o.', 'Rijeka'],
  ['Vukovar Žitarice d.o.o.', 'Vukovar'],
  ['Međimurje Obuća d.o.o.', 'Čakovec'],
  ['Bilogora Med d.o.o.', 'Bjelovar'],
  ['Kornati Ribarstvo d.o.o.', 'Zadar'],
  ['Sljeme Gradnja d.o.o.', 'Zagreb'],
  ['Cetina Beton d.o.o.', 'Split'],
  ['Papuk Namještaj d.o.o.', 'Požega'],
  ['Pelješac Vinarija d.o.o.', 'Dubrovnik'],
  ['Kupa Transport d.o.o.', 'Karlovac'],
  ['Lonja Eko Energija d.o.o.', 'Sisak'],
  ['Brijuni Marine d.o.o.', 'Pula'],
  ['Viro Drvna Industrija d.o.o.', 'Virovitica'],
  ['Samoborsko Staklo d.o.o.', 'Samobor'],
  ['Turopolje Logistika d.o.o.', 'Velika Gorica'],
  ['Mosor Tiskara d.o.o.', 'Split'],
  ['Baranja Farm d.o.o.', 'Osijek'],
  ['Marjan Digital d.o.o.', 'Split'],
  ['Korana Catering d.o.o.', 'Karlovac'],
  ['Trsat Farmacija d.o.o.', 'Rijeka'],
];

const CUSTOMER_ROOTS = [
  'Adria',
  'Agro',
  'Alpe',
  'Bura',
  'Dinara',
  'Dunav',
  'Jelsa',
  'Kalnik',
  'Kamenjak',
  'Kordun',
  'Lastovo',
  'Lovor',
  'Maslina',
  'Mirna',
  'Mura',
  'Omiš',
  'Pag',
  'Plješivica',
  'Ravni kotari',
  'Sunce',
  'Sutla',
  'Una',
  'Vis',
  'Zrinski',
  'Žumberak',
  'Hvar',
  'Brač',
  'Korčula',
  'Dilj',
  'Psunj',
];
const CUSTOMER_TRADES = [
  'Trgovina',
  'Distribucija',
  'Gradnja',
  'Promet',
  'Servis',
  'Market',
  'Inženjering',
  'Opskrba',
  'Energetika',
  'Ugostiteljstvo',
  'Hoteli',
  'Prerada',
  'Proizvodnja',
  'Montaža',
  'Instalacije',
];
const LEGAL_FORMS = ['d.o.o.', 'd.o.o.', 'd.o.o.', 'd.o.o.', 'd.d.', 'j.d.o.o.'];

const FIRST_NAMES = [
  'Ana',
  'Marko',
  'Ivana',
  'Luka',
  'Petra',
  'Tomislav',
  'Maja',
  'Ivan',
  'Josip',
  'Marija',
  'Nikola',
  'Katarina',
  'Stjepan',
  'Lucija',
  'Mario',
  'Martina',
  'Dario',
  'Sanja',
  'Goran',
  'Iva',
  'Krešimir',
  'Jelena',
  'Zoran',
  'Tea',
  'Hrvoje',
  'Mirela',
  'Damir',
  'Vesna',
  'Ante',
  'Kristina',
];
const LAST_NAMES = [
  'Horvat',
  'Kovačević',
  'Babić',
  'Marić',
  'Jurić',
  'Novak',
  'Kovačić',
  'Knežević',
  'Vuković',
  'Marković',
  'Petrović',
  'Matić',
  'Tomić',
  'Pavlović',
  'Božić',
  'Blažević',
  'Grgić',
  'Pavić',
  'Radić',
  'Perić',
  'Šimić',
  'Lovrić',
  'Filipović',
  'Vidović',
  'Klarić',
  'Bošnjak',
  'Mikulić',
  'Šarić',
];

// Bank codes (VBDI) of Croatian banks, for IBANs.
const BANK_CODES = ['2340009', '2360000', '2484008', '2402006', '2390001', '2407000', '2500009'];

const MONTHS = [
  'siječanj',
  'veljača',
  'ožujak',
  'travanj',
  'svibanj',
  'lipanj',
  'srpanj',
  'kolovoz',
  'rujan',
  'listopad',
  'studeni',
  'prosinac',
];

const REJECTION_REASONS = [
  'Kupac osporava isporuku – otvorena reklamacija.',
  'Faktura je već ustupljena drugom faktoru.',
  'Nepotpuna dokumentacija: nedostaje otpremnica potpisana od kupca.',
  'Kupac ima blokiran račun (FINA).',
  'Rok dospijeća dulji od 120 dana nije predmet ugovora.',
  'Iznos fakture ne odgovara narudžbenici.',
];

const BLOCKAGE_REASONS = [
  'Račun blokiran temeljem rješenja Porezne uprave o ovrsi.',
  'Blokada po osnovi neplaćenih obveza prema dobavljačima (FINA, očevidnik redoslijeda osnova za plaćanje).',
  'Ovrha na temelju vjerodostojne isprave – račun u blokadi duže od 60 dana.',
];

// [description, KPD code, unit code, unit price range in cents]
const LINE_ITEMS: ReadonlyArray<readonly [string, string, string, number, number]> = [
  ['Usluga cestovnog prijevoza robe', '49.41.19', 'KMT', 90, 180],
  ['Usluga skladištenja', '52.10.19', 'DAY', 1500, 9000],
  ['Paleta drvena EUR 1200×800', '16.24.11', 'H87', 900, 1600],
  ['Građevinski radovi – zidanje', '43.99.90', 'MTK', 2500, 6000],
  ['Beton C25/30', '23.63.10', 'MTQ', 8000, 12000],
  ['Programiranje i održavanje aplikacije', '62.01.11', 'HUR', 3500, 7500],
  ['Kartonska ambalaža', '17.21.13', 'H87', 40, 300],
  ['Pšenično brašno T-550', '10.61.21', 'KGM', 45, 90],
  ['Uredski namještaj – radni stol', '31.01.12', 'H87', 18000, 42000],
  ['Usluga ugostiteljstva – catering', '56.21.19', 'C62', 1200, 3500],
];

const ADVANCE_RATES = ['70.00', '75.00', '80.00', '80.00', '80.00', '85.00', '90.00'];
const FEE_RATES = ['1.000', '1.250', '1.500', '1.500', '1.750', '2.000', '2.250', '2.500'];

// Weights in percent (integers, so the automatic score is computed exactly).
const RISK_FACTORS: ReadonlyArray<readonly [string, number]> = [
  ['paymentHistory', 30],
  ['daysPastDue', 20],
  ['accountBlockages', 15],
  ['concentration', 10],
  ['companyAge', 10],
  ['financials', 15],
];

function riskCategory(score: number): 'low' | 'medium' | 'high' {
  return score >= 80 ? 'low' : score >= 60 ? 'medium' : 'high';
}

function asciiSlug(text: string): string {
  return text
    .replace(/đ/g, 'dj')
    .replace(/Đ/g, 'Dj')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\b(d\.o\.o\.|j\.d\.o\.o\.|d\.d\.)/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

// ---------------------------------------------------------------------------
// A minimal, valid one-page PDF, so document downloads open in any viewer.

function pdfText(text: string): string {
  // Helvetica with WinAnsi has no č, ć, đ: transliterate, and escape PDF string delimiters.
  return text
    .replace(/đ/g, 'dj')
    .replace(/Đ/g, 'Dj')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '-')
    .replace(/([\\()])/g, '\\$1');
}

export function minimalPdf(title: string, lines: string[]): Buffer {
  const content = [
    'BT',
    '/F1 16 Tf',
    '56 780 Td',
    `(${pdfText(title)}) Tj`,
    '/F1 11 Tf',
    ...lines.flatMap((line) => ['0 -22 Td', `(${pdfText(line)}) Tj`]),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // Everything is ASCII, so string offsets are byte offsets.
  return Buffer.from(pdf, 'latin1');
}

// ---------------------------------------------------------------------------
// Staff

interface Staff {
  id: string;
  name: string;
  role: 'user' | 'manager' | 'admin';
}
interface StaffSet {
  all: Staff[];
  /** The ids this run inserted (not pre-existing accounts with a demo email). */
  inserted: Set<string>;
  /** Managers and admins: they verify, approve, finance, confirm and decide limits. */
  deciders: Staff[];
}

const DEMO_STAFF: ReadonlyArray<readonly [string, string, Staff['role']]> = [
  ['Ana', 'Horvat', 'manager'],
  ['Marko', 'Kovačević', 'user'],
  ['Ivana', 'Babić', 'user'],
  ['Luka', 'Marić', 'manager'],
  ['Petra', 'Jurić', 'admin'],
  ['Tomislav', 'Novak', 'user'],
];

/**
 * Demo staff have no password, so nobody can sign in as them; they exist to
 * be the creators, deciders and assignees of the book. An existing user with
 * the same email is reused rather than overwritten.
 */
async function insertStaff(sequelize: Sequelize, transaction: Transaction, clock: Clock): Promise<StaffSet> {
  const rows = DEMO_STAFF.map(([first, last, role], index) => ({
    id: randomUUID(),
    email: `${asciiSlug(first)}.${asciiSlug(last)}@finflow.local`,
    first_name: first,
    last_name: last,
    role,
    is_active: true,
    password_hash: null,
    created_at: date(clock.midnight - (800 - index) * DAY + 8 * HOUR),
  }));
  const values: unknown[] = [];
  const tuples = rows.map((row) => {
    const placeholders = Object.values(row).map((value) => {
      values.push(value);
      return `$${values.length}`;
    });
    return `(${placeholders.join(', ')})`;
  });
  const inserted = (await sequelize.query(
    `INSERT INTO users (${Object.keys(rows[0]).join(', ')}) VALUES ${tuples.join(
      ', ',
    )} ON CONFLICT (email) DO NOTHING RETURNING id`,
    { bind: values, transaction, type: QueryTypes.SELECT },
  )) as Array<{ id: string }>;
  const [found] = (await sequelize.query('SELECT id, email, role FROM users WHERE email IN (:emails)', {
    replacements: { emails: rows.map((row) => row.email) },
    transaction,
  })) as [Array<{ id: string; email: string; role: string }>, unknown];
  const all = rows.map((row) => {
    const user = found.find((candidate) => candidate.email === row.email)!;
    const role = (['user', 'manager', 'admin'].includes(user.role) ? user.role : 'admin') as Staff['role'];
    return { id: user.id, name: `${row.first_name} ${row.last_name}`, role };
  });
  return {
    all,
    inserted: new Set(inserted.map((row) => row.id)),
    deciders: all.filter((user) => user.role !== 'user'),
  };
}

// ---------------------------------------------------------------------------
// The book

interface Party {
  id: string;
  companyName: string;
  oib: string;
  email: string;
  iban: string;
  createdAt: number;
  foundedYear: number;
  riskScore: number | null;
}

interface ClientInfo extends Party {
  status: 'active' | 'pending' | 'inactive';
  size: 0 | 1 | 2;
  advanceRate: string;
  feeRate: string;
  contactPerson: string;
  customers: CustomerInfo[];
  row: Row;
}

interface CustomerInfo extends Party {
  blocked: boolean;
  row: Row;
}

interface InvoiceInfo {
  id: string;
  number: string;
  client: ClientInfo;
  customer: CustomerInfo;
  status: string;
  amount: number;
  dueDay: string;
  createdAt: number;
  financedAt?: number;
  factorAmount?: number;
  factorFee?: number;
  paidAt?: number;
  row: Row;
}

interface Event {
  at: number;
  action: string;
  entityType: string | null;
  entityId: string | null;
  userId: string | null;
  details: Record<string, unknown>;
}

interface Book {
  tables: Array<[string, Row[]]>;
  /** Rows that exist already (the reference data), by id: the columns the book sets. */
  updates: Array<[string, Row[]]>;
  lastLogins: Array<[string, number]>;
  files: Array<{ bytes: Buffer; row: Row }>;
}

/** What every part of the book draws on: the PRNG, the clock, the staff, and the activity it records. */
class Context {
  readonly events: Event[] = [];
  private readonly usedOibs = new Set<string>();

  constructor(readonly random: Random, readonly clock: Clock, readonly staff: StaffSet) {}

  event(
    at: number,
    action: string,
    entityType: string | null,
    entityId: string | null,
    userId: string | null,
    details: Record<string, unknown>,
  ) {
    this.events.push({ at, action, entityType, entityId, userId, details });
  }
  anyone(): Staff {
    return this.random.pick(this.staff.all);
  }
  /** A manager or admin other than `except` (four eyes). */
  decider(except?: Staff): Staff {
    return this.random.pick(this.staff.deciders.filter((user) => user !== except));
  }
  /** A fresh OIB, unique across clients and customers, with its check digit. */
  oib(): string {
    for (;;) {
      const first10 = String(this.random.int(1, 9)) + this.random.digits(9);
      const oib = first10 + oibCheckDigit(first10);
      if (!this.usedOibs.has(oib)) {
        this.usedOibs.add(oib);
        return oib;
      }
    }
  }
  iban(): string {
    return croatianIban(this.random.pick(BANK_CODES), String(this.random.int(1, 9)) + this.random.digits(9));
  }
  address(cityName: string): string {
    const suffix = this.random.chance(0.15) ? this.random.pick(['a', 'b', 'c']) : '';
    return `${this.random.pick(cityOf(cityName)[3])} ${this.random.int(1, 160)}${suffix}`;
  }
  /** Landlines with the city's area code, some mobiles. */
  phone(cityName: string): string {
    const { random } = this;
    if (random.chance(0.25))
      return `+385 9${random.pick(['1', '2', '5', '8', '9'])} ${random.digits(3)} ${random.digits(4)}`;
    const area = cityOf(cityName)[2];
    const first = `${random.int(2, 6)}${random.digits(2)}`;
    return `+385 ${area} ${first} ${area.length === 1 ? random.digits(4) : random.digits(3)}`;
  }
  person(): string {
    return `${this.random.pick(FIRST_NAMES)} ${this.random.pick(LAST_NAMES)}`;
  }
  registrationNumber(): string {
    return `0${this.random.pick(['80', '60', '30', '40', '90'])}${this.random.digits(6)}`;
  }
  foundedOn(year: number): string {
    return `${year}-${String(this.random.int(1, 12)).padStart(2, '0')}-${String(this.random.int(1, 28)).padStart(
      2,
      '0',
    )}`;
  }
}

const cityOf = (name: string) => CITIES.find(([cityName]) => cityName === name)!;

function buildBook(random: Random, clock: Clock, staff: StaffSet, reference: ReferenceRowIds): Book {
  const ctx = new Context(random, clock, staff);
  const clients = buildClients(ctx);
  const customers = buildCustomers(ctx, clients);
  const ledger = buildInvoices(ctx, clients, customers);
  const credit = buildCredit(ctx, clients, ledger.invoices);
  const risk = new RiskBook(ctx);
  risk.assessHistory(clients, customers);
  const documents = buildDocuments(ctx, clients, customers, ledger.invoices);
  const tasks = new TaskBook(ctx);
  const workflows = buildWorkflows(ctx, { clients, customers, ledger, risk, tasks }, reference);
  buildDailyTasks(ctx, tasks, { clients, customers, invoices: ledger.invoices, documents: documents.rows, credit });
  const email = buildEmail(ctx, clients, ledger.invoices, reference);
  const integrations = buildIntegrations(ctx, reference);
  const activity = buildActivity(ctx);

  // Clients' and customers' current risk score is their latest assessment.
  for (const party of [...clients, ...customers]) {
    party.row.risk_score = party.riskScore;
    party.row.risk_category = party.riskScore === null ? null : riskCategory(party.riskScore);
  }

  return {
    files: documents.files,
    lastLogins: activity.lastLogins,
    tables: [
      ['clients', clients.map((client) => client.row)],
      ['customers', customers.map((customer) => customer.row)],
      ['documents', documents.rows],
      ['invoices', ledger.invoices.map((invoice) => invoice.row)],
      ['invoice_lines', ledger.lines],
      ['risk_assessments', risk.rows],
      ['credit_limit_requests', credit.rows],
      ['payments', ledger.payments],
      ['payouts', ledger.payouts],
      ['workflow_instances', workflows.instances],
      ['workflow_step_runs', workflows.runs],
      ['tasks', tasks.rows],
      ['email_templates', email.newTemplates],
      ['email_campaigns', email.campaigns],
      ['email_logs', email.logs],
      ['integration_logs', integrations.logs],
      ['activity_logs', activity.rows],
    ],
    updates: [
      ['workflow_definitions', workflows.definitions],
      ['email_templates', email.referenceTemplates],
      ['integrations', integrations.integrations],
    ],
  };
}

// ---- Clients and customers --------------------------------------------------

function buildClients(ctx: Context): ClientInfo[] {
  const { random, clock } = ctx;
  // 33 active, 5 pending (in onboarding, registered in the last weeks), 2 inactive.
  const statuses = random.shuffle<ClientInfo['status']>([
    ...Array<ClientInfo['status']>(33).fill('active'),
    ...Array<ClientInfo['status']>(5).fill('pending'),
    ...Array<ClientInfo['status']>(2).fill('inactive'),
  ]);
  return CLIENT_COMPANIES.map(([companyName, cityName], index) => {
    const status = statuses[index];
    const createdDaysAgo =
      status === 'pending'
        ? random.int(2, 25)
        : status === 'inactive'
        ? random.int(650, 760)
        : random.weighted([random.int(400, 760), 7], [random.int(60, 399), 3]);
    const contactPerson = ctx.person();
    const domain = `${asciiSlug(companyName)}.hr`;
    const [first, last] = contactPerson.split(' ');
    const creator = ctx.anyone();
    const createdAt = clock.at(createdDaysAgo, random);
    const client: ClientInfo = {
      id: randomUUID(),
      companyName,
      oib: ctx.oib(),
      email: random.chance(0.5) ? `${asciiSlug(first)}.${asciiSlug(last)}@${domain}` : `info@${domain}`,
      iban: ctx.iban(),
      createdAt,
      foundedYear: random.int(1991, 2019),
      riskScore: null,
      status,
      size: random.weighted<0 | 1 | 2>([0, 4], [1, 4], [2, 2]),
      advanceRate: random.pick(ADVANCE_RATES),
      feeRate: random.pick(FEE_RATES),
      contactPerson,
      customers: [],
      row: {},
    };
    const onboarded = status !== 'pending';
    client.row = {
      id: client.id,
      company_name: companyName,
      oib: client.oib,
      address: ctx.address(cityName),
      city: cityName,
      postal_code: cityOf(cityName)[1],
      country: 'Croatia',
      contact_person: contactPerson,
      email: client.email,
      phone: ctx.phone(cityName),
      iban: client.iban,
      registration_number: ctx.registrationNumber(),
      status,
      advance_rate: client.advanceRate,
      fee_rate: client.feeRate,
      recourse: random.chance(0.8),
      agreement_number: onboarded
        ? `UGF-${new Date(createdAt).getUTCFullYear()}-${String(index + 1).padStart(4, '0')}`
        : null,
      agreement_signed_on: onboarded ? clock.day(createdAt + random.int(1, 6) * DAY) : null,
      founded_on: ctx.foundedOn(client.foundedYear),
      onboarding_status: onboarded ? 'completed' : 'in_progress',
      // Applicants register themselves in the public wizard.
      created_by: onboarded ? creator.id : null,
      created_at: date(createdAt),
      updated_at: date(createdAt),
    };
    ctx.event(createdAt, 'client_created', 'client', client.id, onboarded ? creator.id : null, {
      companyName,
      oib: client.oib,
      ...(onboarded ? {} : { source: 'onboarding' }),
    });
    return client;
  });
}

function buildCustomers(ctx: Context, clients: ClientInfo[]): CustomerInfo[] {
  const { random, clock } = ctx;
  const names = random
    .shuffle(CUSTOMER_ROOTS.flatMap((root) => CUSTOMER_TRADES.map((trade) => `${root} ${trade}`)))
    .slice(0, 120)
    .map((name) => `${name} ${random.pick(LEGAL_FORMS)}`);
  const customers = names.map((companyName, index) => {
    const [cityName] = random.pick(CITIES);
    const blocked = index % 20 === 7; // six blocked customers
    const customer: CustomerInfo = {
      id: randomUUID(),
      companyName,
      oib: ctx.oib(),
      email: `${random.pick(['racunovodstvo', 'financije', 'info', 'nabava'])}@${asciiSlug(companyName)}.hr`,
      iban: ctx.iban(),
      // Moved before the customer's first invoice once invoices exist (buildInvoices).
      createdAt: clock.at(random.int(30, 780), random),
      foundedYear: random.int(1990, 2021),
      riskScore: null,
      blocked,
      row: {},
    };
    customer.row = {
      id: customer.id,
      company_name: companyName,
      oib: customer.oib,
      address: ctx.address(cityName),
      city: cityName,
      postal_code: cityOf(cityName)[1],
      country: 'Croatia',
      email: customer.email,
      phone: ctx.phone(cityName),
      iban: customer.iban,
      registration_number: ctx.registrationNumber(),
      account_blocked: blocked,
      blockage_reason: blocked ? random.pick(BLOCKAGE_REASONS) : null,
      last_fina_check: blocked || random.chance(0.85) ? date(clock.at(random.int(0, 20), random)) : null,
      founded_on: ctx.foundedOn(customer.foundedYear),
      created_by: ctx.anyone().id,
    };
    return customer;
  });
  // Each client sells to a handful of customers; customers may buy from several clients.
  for (const client of clients) client.customers = random.shuffle(customers).slice(0, random.int(3, 7));
  return customers;
}

// ---- Invoices, lines, payments, payouts ---------------------------------------

interface Ledger {
  invoices: InvoiceInfo[];
  lines: Row[];
  payments: Row[];
  payouts: Row[];
}

// Invoice amounts in EUR by client size: [range, weight].
const AMOUNT_RANGES: ReadonlyArray<ReadonlyArray<readonly [readonly [number, number], number]>> = [
  [
    [[500, 3_000], 5],
    [[3_000, 12_000], 4],
    [[12_000, 30_000], 1],
  ],
  [
    [[2_000, 8_000], 3],
    [[8_000, 30_000], 5],
    [[30_000, 70_000], 2],
  ],
  [
    [[5_000, 20_000], 3],
    [[20_000, 60_000], 5],
    [[60_000, 150_000], 2],
  ],
];

const DESCRIPTIONS: ReadonlyArray<(n: string, month: string, year: number) => string> = [
  (n) => `Isporuka robe prema narudžbenici br. ${n}`,
  (_, month, year) => `Usluge prijevoza za ${month} ${year}.`,
  (n) => `Građevinski radovi – privremena situacija br. ${(Number(n.slice(-2)) % 9) + 1}`,
  (_, month, year) => `Održavanje informatičkog sustava za ${month} ${year}.`,
  (n) => `Isporuka ambalaže – otpremnica ${n}`,
  (n) => `Konzultantske usluge prema ugovoru ${n}`,
  (_, month, year) => `Najam opreme za ${month} ${year}.`,
  (n) => `Isporuka materijala za gradilište, narudžba ${n}`,
];

const STAGE: Record<string, number> = { pending: 0, rejected: 0, verified: 1, approved: 2, financed: 3, paid: 3 };

function buildInvoices(ctx: Context, clients: ClientInfo[], customers: CustomerInfo[]): Ledger {
  const { random, clock } = ctx;
  const ledger: Ledger = { invoices: [], lines: [], payments: [], payouts: [] };
  const bankEntries = { next: 0 };

  for (const client of clients) {
    if (client.status === 'pending') continue;
    const clientAgeDays = Math.floor((clock.midnight - client.createdAt) / DAY) + 1;
    // About eighteen months of invoices; inactive clients stopped about seven months ago.
    const newest = client.status === 'inactive' ? 210 : 0;
    const oldest = Math.min(540, clientAgeDays - 7);
    const perMonth = [0.9, 1.3, 1.6][client.size];
    const count = Math.max(2, Math.round(((oldest - newest) / 30) * perMonth));
    const issueDaysAgo = Array.from({ length: count }, () => random.int(newest, oldest)).sort((a, b) => b - a);
    const sequenceByYear = new Map<number, number>();
    for (const issueAgo of issueDaysAgo) {
      const year = new Date(clock.midnight - issueAgo * DAY).getUTCFullYear();
      const sequence = (sequenceByYear.get(year) ?? 0) + 1;
      sequenceByYear.set(year, sequence);
      ledger.invoices.push(
        buildInvoice(ctx, ledger, client, issueAgo, `R-${year}-${String(sequence).padStart(4, '0')}`, bankEntries),
      );
    }
  }

  // Customers existed before their first invoice.
  for (const customer of customers) {
    const first = Math.min(
      ...ledger.invoices.filter((invoice) => invoice.customer === customer).map((invoice) => invoice.createdAt),
    );
    if (first < customer.createdAt) customer.createdAt = first - random.int(1, 30) * DAY;
    Object.assign(customer.row, { created_at: date(customer.createdAt), updated_at: date(customer.createdAt) });
  }
  return ledger;
}

/** The status an invoice issued `issueAgo` days ago, due `dueAgo` days ago (negative: not yet), would have by now. */
function lifecycleStatus(random: Random, issueAgo: number, dueAgo: number): string {
  if (issueAgo < 3) return random.weighted(['pending', 8], ['verified', 2]);
  if (dueAgo < 0 && issueAgo < 6)
    return random.weighted(['pending', 4], ['verified', 3], ['approved', 2], ['rejected', 1]);
  if (dueAgo < 0) {
    // Not due yet: most are financed, the rest still on their way (or refused).
    return random.weighted(
      ['financed', 55],
      ['pending', 10],
      ['verified', 10],
      ['approved', 10],
      ['rejected', 8],
      ['paid', 7],
    );
  }
  // Due: mostly collected by now; a few financed ones are overdue, but only recently.
  if (dueAgo < 70) return random.weighted(['financed', 12], ['paid', 78], ['rejected', 10]);
  return random.weighted(['paid', 88], ['rejected', 12]);
}

/** One invoice, taken as far along its lifecycle as an invoice of its age would be by now. */
function buildInvoice(
  ctx: Context,
  ledger: Ledger,
  client: ClientInfo,
  issueAgo: number,
  number: string,
  bankEntries: { next: number },
): InvoiceInfo {
  const { random, clock } = ctx;
  const issueMs = clock.midnight - issueAgo * DAY;
  const termDays = random.pick([30, 30, 45, 60, 60, 90]);
  const dueAgo = issueAgo - termDays;
  const dueDay = clock.dayAgo(dueAgo);
  const customer = random.pick(client.customers);
  const id = randomUUID();

  // Lines for about a quarter of the invoices; the amount is then their net plus 25 % VAT.
  let amount: number;
  if (random.chance(0.25)) {
    const nets: number[] = [];
    const lineCount = random.int(1, 4);
    for (let lineNumber = 1; lineNumber <= lineCount; lineNumber++) {
      const [description, kpd, unit, minPrice, maxPrice] = random.pick(LINE_ITEMS);
      const quantity = random.int(1, unit === 'KMT' ? 1800 : unit === 'KGM' ? 20_000 : 120);
      const unitPrice = random.int(minPrice, maxPrice);
      nets.push(quantity * unitPrice);
      ledger.lines.push({
        id: randomUUID(),
        invoice_id: id,
        line_number: lineNumber,
        description,
        quantity: `${quantity}.0000`,
        unit_code: unit,
        unit_price: `${money(unitPrice)}00`,
        net_amount: money(quantity * unitPrice),
        vat_category: 'S',
        vat_rate: '25.00',
        kpd_code: kpd,
      });
    }
    const net = sumCents(nets);
    amount = net + percentOfCents(net, '25');
  } else {
    const [min, max] = random.weighted(...AMOUNT_RANGES[client.size]);
    amount = random.int(min * 100, max * 100);
  }

  let status = lifecycleStatus(random, issueAgo, dueAgo);
  // Financing is refused for a blocked customer: most of theirs wait, approved.
  if (customer.blocked && status === 'financed' && dueAgo < 0 && random.chance(0.7)) status = 'approved';

  const creator = ctx.anyone();
  const createdAt = clock.at(issueAgo - random.int(0, 1), random);
  const row: Row = {
    id,
    client_id: client.id,
    customer_id: customer.id,
    invoice_number: number,
    status,
    verification_status: 'pending',
    amount: money(amount),
    currency: 'EUR',
    issue_date: clock.day(issueMs),
    due_date: dueDay,
    description: random.pick(DESCRIPTIONS)(
      String(random.int(1000, 9999)),
      MONTHS[new Date(issueMs).getUTCMonth()],
      new Date(issueMs).getUTCFullYear(),
    ),
    factor_amount: null,
    factor_fee: null,
    paid_amount: '0.00',
    created_by: creator.id,
    created_at: date(createdAt),
  };
  const invoice: InvoiceInfo = { id, number, client, customer, status, amount, dueDay, createdAt, row };
  const details = { invoiceNumber: number, clientName: client.companyName, amount: centsToNumber(amount) };
  ctx.event(createdAt, 'invoice_created', 'invoice', id, creator.id, details);

  // Each step a few office hours after the previous one; never later than now.
  let cursor = createdAt;
  const step = () => (cursor = clock.past(clock.office(cursor + random.int(2, 30) * HOUR)));
  const rejectedStage = status === 'rejected' ? random.weighted([0, 5], [1, 3], [2, 2]) : 0;
  const reaches = (stage: number) => STAGE[status] >= stage || rejectedStage >= stage;

  let verifier: Staff | undefined;
  if (reaches(1)) {
    verifier = ctx.decider();
    Object.assign(row, { verification_status: 'verified', verified_by: verifier.id, verified_at: date(step()) });
    ctx.event(cursor, 'invoice_verified', 'invoice', id, verifier.id, details);
  } else if (status === 'pending' && random.chance(0.08)) {
    row.verification_status = 'failed';
  }
  if (reaches(2)) {
    // Four eyes: whoever verified does not approve.
    const approver = ctx.decider(verifier);
    Object.assign(row, { approved_by: approver.id, approved_at: date(step()) });
    ctx.event(cursor, 'invoice_approved', 'invoice', id, approver.id, details);
  }
  if (status === 'rejected') {
    const rejecter = ctx.decider();
    const reason = customer.blocked ? REJECTION_REASONS[3] : random.pick(REJECTION_REASONS);
    Object.assign(row, { rejected_by: rejecter.id, rejected_at: date(step()), rejection_reason: reason });
    if (rejectedStage === 0 && random.chance(0.5)) row.verification_status = 'failed';
    ctx.event(cursor, 'invoice_rejected', 'invoice', id, rejecter.id, { ...details, reason });
  }
  if (status === 'financed' || status === 'paid') {
    const financer = ctx.decider();
    const financedAt = step();
    const factorAmount = percentOfCents(amount, client.advanceRate);
    const factorFee = factoringFeeCents(amount, client.feeRate, daysBetween(clock.day(financedAt), dueDay));
    Object.assign(invoice, { financedAt, factorAmount, factorFee });
    Object.assign(row, {
      financed_by: financer.id,
      financed_at: date(financedAt),
      factor_amount: money(factorAmount),
      factor_fee: money(factorFee),
    });
    ctx.event(financedAt, 'invoice_financed', 'invoice', id, financer.id, {
      ...details,
      factorAmount: centsToNumber(factorAmount),
      factorFee: centsToNumber(factorFee),
    });
    ledger.payouts.push(payout(ctx, invoice, 'advance', factorAmount, financedAt, financer));
    const confirmed = collect(ctx, ledger, invoice, bankEntries);
    row.paid_amount = money(confirmed);
    if (invoice.paidAt !== undefined) {
      row.paid_at = date(invoice.paidAt);
      ctx.event(invoice.paidAt, 'invoice_paid', 'invoice', id, null, details);
      // The reserve goes back to the client once the customer has paid.
      const reserve = amount - factorAmount - factorFee;
      ledger.payouts.push(payout(ctx, invoice, 'reserve_release', reserve, invoice.paidAt, ctx.decider()));
    }
  }
  row.updated_at = date(Math.max(cursor, invoice.paidAt ?? 0));
  return invoice;
}

/** A payout to the client's IBAN, exported in the next day's SEPA batch and paid soon after. */
function payout(
  ctx: Context,
  invoice: InvoiceInfo,
  kind: 'advance' | 'reserve_release',
  amount: number,
  at: number,
  by: Staff,
): Row {
  const age = ctx.clock.now - at;
  const exported = age > 2 * DAY;
  return {
    id: randomUUID(),
    client_id: invoice.client.id,
    invoice_id: invoice.id,
    kind,
    amount: money(amount),
    currency: 'EUR',
    iban: invoice.client.iban,
    status: age > 4 * DAY ? 'paid' : exported ? 'exported' : 'pending',
    export_batch_id: exported ? `SEPA-${ctx.clock.day(at + DAY)}` : null,
    exported_at: exported ? date(at + DAY) : null,
    created_by: by.id,
    created_at: date(at),
    updated_at: date(exported ? at + DAY : at),
  };
}

/**
 * The customer's payments on a financed invoice. A paid invoice's confirmed
 * payments add up to its amount (sets `invoice.paidAt`); an open one may have
 * a pending, failed or partial payment. Returns the confirmed total.
 */
function collect(ctx: Context, ledger: Ledger, invoice: InvoiceInfo, bankEntries: { next: number }): number {
  const { random, clock } = ctx;
  const { amount, number } = invoice;
  const financedAt = invoice.financedAt!;
  const confirmed: number[] = [];
  const add = (
    amountCents: number,
    status: 'pending' | 'confirmed' | 'failed' | 'refunded',
    at: number,
    notes?: string,
  ) => {
    // Most settled payments come in with the bank statement import; the rest are typed in.
    const fromBank = status !== 'pending' && random.chance(0.6);
    const recorder = ctx.anyone();
    const processor = ctx.decider();
    const createdAt = fromBank ? at - random.int(5, 120) * MINUTE : at - random.int(1, 48) * HOUR;
    const id = randomUUID();
    ledger.payments.push({
      id,
      invoice_id: invoice.id,
      amount: money(amountCents),
      currency: 'EUR',
      payment_method: fromBank
        ? 'bank_transfer'
        : random.weighted(['bank_transfer', 85], ['card', 6], ['check', 5], ['cash', 4]),
      status,
      reference: `HR00 ${number.replace(/\D/g, '')}`,
      notes: notes ?? null,
      source: fromBank ? 'bank_statement' : 'manual',
      bank_entry_ref: fromBank
        ? `IZV-${clock.day(at).replace(/-/g, '')}-${String(++bankEntries.next).padStart(5, '0')}`
        : null,
      recorded_by: fromBank ? null : recorder.id,
      processed_by: status === 'pending' ? null : processor.id,
      processed_at: status === 'pending' ? null : date(at),
      created_at: date(Math.max(createdAt, financedAt + MINUTE)),
      updated_at: date(at),
    });
    const details = { invoiceNumber: number, amount: centsToNumber(amountCents) };
    if (status === 'confirmed') confirmed.push(amountCents);
    if (status === 'pending') ctx.event(at, 'payment_recorded', 'payment', id, recorder.id, details);
    else ctx.event(at, `payment_${status}`, 'payment', id, processor.id, details);
  };

  if (invoice.status === 'paid') {
    const dueMs = Date.parse(invoice.dueDay);
    const paidAt = clock.past(
      Math.max(financedAt + random.int(1, 5) * DAY, dueMs + random.int(-12, 20) * DAY + random.int(8, 15) * HOUR),
    );
    const earlier = (maxDays: number, minDays = 2) =>
      Math.max(financedAt + HOUR, paidAt - random.int(minDays, maxDays) * DAY);
    if (random.chance(0.06))
      add(amount, 'failed', earlier(6), 'Banka odbila nalog: nedovoljno sredstava na računu platitelja.');
    if (random.chance(0.15)) {
      const first = Math.floor((amount * random.int(3, 6)) / 10);
      add(first, 'confirmed', earlier(20, 5), 'Djelomična uplata.');
      add(amount - first, 'confirmed', paidAt);
    } else {
      add(amount, 'confirmed', paidAt);
    }
    if (random.chance(0.04)) {
      add(amount, 'refunded', clock.past(paidAt + random.int(2, 6) * DAY), 'Dvostruka uplata – iznos vraćen kupcu.');
    }
    invoice.paidAt = paidAt;
  } else {
    const kind = random.weighted(['none', 66], ['pending', 16], ['partial', 10], ['failed', 8]);
    const recent = (daysBack: number) =>
      clock.past(Math.max(financedAt + HOUR, clock.at(random.int(0, daysBack), random)));
    if (kind === 'partial') {
      const part = Math.floor((amount * random.int(2, 5)) / 10);
      add(part, 'confirmed', recent(20), 'Djelomična uplata po dogovoru o obročnoj otplati.');
      if (random.chance(0.5)) add(amount - part, 'pending', recent(3));
    } else if (kind === 'pending') {
      add(amount, 'pending', recent(6));
    } else if (kind === 'failed') {
      const reason = random.pick([
        'Povrat od banke: neispravan IBAN primatelja.',
        'Banka odbila nalog: račun platitelja je blokiran.',
      ]);
      add(amount, 'failed', recent(25), reason);
    }
  }
  return sumCents(confirmed);
}

// ---- Credit limits ----------------------------------------------------------------

interface Credit {
  rows: Row[];
  /** Open requests, for the limit-approval tasks. */
  pending: Array<{ id: string; client: ClientInfo }>;
}

function buildCredit(ctx: Context, clients: ClientInfo[], invoices: InvoiceInfo[]): Credit {
  const { random, clock } = ctx;
  const credit: Credit = { rows: [], pending: [] };
  const request = (
    fields: Row,
    requester: Staff | null,
    requestedAt: number,
    clientName: string,
    requested: number,
  ) => {
    const id = randomUUID();
    credit.rows.push({
      id,
      requested_by: requester?.id ?? null,
      requested_at: date(requestedAt),
      valid_until: clock.day(requestedAt + 365 * DAY),
      requested_limit: money(requested),
      created_at: date(requestedAt),
      updated_at: date(requestedAt),
      ...fields,
    });
    if (requester) {
      ctx.event(requestedAt, 'credit_limit_requested', 'credit_limit_request', id, requester.id, {
        clientName,
        requestedLimit: centsToNumber(requested),
      });
    }
    return id;
  };

  for (const client of clients) {
    // DESIGN §9: used credit is the sum of open advances.
    const used = sumCents(
      invoices.filter((i) => i.client === client && i.status === 'financed').map((i) => i.factorAmount!),
    );
    client.row.used_credit = money(used);
    if (client.status === 'pending') {
      client.row.credit_limit = null;
      continue;
    }
    // A limit that leaves 5–80 % headroom, in steps of 10,000 EUR, so usage bars show green, amber and red.
    const utilisation = random.weighted([random.int(20, 60), 6], [random.int(61, 89), 3], [random.int(90, 95), 1]);
    const floor = [20_000, 50_000, 100_000][client.size] * 100;
    const limit =
      client.status === 'inactive'
        ? null
        : Math.max(floor, Math.ceil((used * 100) / utilisation / 1_000_000) * 1_000_000);
    client.row.credit_limit = limit === null ? null : money(limit);

    // The history: approved at onboarding, renewed yearly; all but the current one have expired.
    const approvals: number[] = [];
    for (let at = client.createdAt + random.int(2, 6) * DAY; at < clock.now; at += random.int(350, 364) * DAY)
      approvals.push(at);
    let previous: number | null = null;
    approvals.forEach((approvedAt, index) => {
      const current = index === approvals.length - 1;
      const granted =
        current && limit !== null ? limit : Math.max(floor, (limit ?? floor) - random.int(1, 5) * 2_500_000);
      const requester = ctx.anyone();
      const approver = ctx.decider(requester);
      const requestedAt = clock.past(Math.max(client.createdAt, approvedAt - random.int(1, 3) * DAY));
      const decidedAt = clock.past(approvedAt);
      const id = request(
        {
          client_id: client.id,
          previous_limit: previous === null ? null : money(previous),
          approved_limit: money(granted),
          reason:
            index === 0
              ? 'Početni limit po sklapanju ugovora o faktoringu.'
              : 'Godišnja obnova limita na temelju financijskih izvještaja.',
          valid_until: clock.day(approvedAt + 365 * DAY),
          status: current && client.status === 'active' ? 'approved' : 'expired',
          decided_by: approver.id,
          decided_at: date(decidedAt),
          updated_at: date(decidedAt),
        },
        requester,
        requestedAt,
        client.companyName,
        granted,
      );
      ctx.event(decidedAt, 'credit_limit_approved', 'credit_limit_request', id, approver.id, {
        clientName: client.companyName,
        approvedLimit: centsToNumber(granted),
      });
      previous = granted;
    });
  }

  // Requests for an increase: eight open, six refused (four eyes: the decider never asked).
  const active = clients.filter((client) => client.status === 'active');
  for (const [index, client] of random.shuffle(active).slice(0, 14).entries()) {
    const current = client.row.credit_limit === null ? 0 : toCents(client.row.credit_limit as string);
    const requested = current + random.int(2, 20) * 2_500_000;
    const requester = ctx.anyone();
    const requestedAt = clock.at(index < 8 ? random.int(0, 12) : random.int(20, 200), random);
    const rejected = index >= 8;
    const decider = rejected ? ctx.decider(requester) : undefined;
    const decidedAt = rejected ? clock.past(requestedAt + random.int(1, 4) * DAY) : undefined;
    const reason = random.pick([
      'Povećanje prometa s postojećim kupcima.',
      'Novi ugovor s velikim kupcem, očekivani rast fakturiranja.',
      'Sezonski porast prodaje.',
      'Proširenje suradnje na nove kupce u regiji.',
    ]);
    const id = request(
      {
        client_id: client.id,
        previous_limit: money(current),
        approved_limit: null,
        reason,
        status: rejected ? 'rejected' : 'pending',
        decided_by: decider?.id ?? null,
        decided_at: decidedAt === undefined ? null : date(decidedAt),
        // DESIGN §9: the fixed reason of a rejection.
        rejection_reason: rejected ? 'Odbijeno od strane administratora' : null,
        updated_at: date(decidedAt ?? requestedAt),
      },
      requester,
      requestedAt,
      client.companyName,
      requested,
    );
    if (rejected) {
      ctx.event(decidedAt!, 'credit_limit_rejected', 'credit_limit_request', id, decider!.id, {
        clientName: client.companyName,
        reason: 'Odbijeno od strane administratora',
      });
    } else credit.pending.push({ id, client });
  }

  // Applicants asked for a limit in the wizard: a pending request without a requesting user.
  for (const client of clients.filter((c) => c.status === 'pending').slice(0, 3)) {
    const requested = random.pick([50_000, 75_000, 100_000, 150_000]) * 100;
    const id = request(
      {
        client_id: client.id,
        previous_limit: null,
        approved_limit: null,
        reason: 'Željeni kreditni limit iz registracije klijenta.',
        status: 'pending',
      },
      null,
      client.createdAt,
      client.companyName,
      requested,
    );
    credit.pending.push({ id, client });
  }
  return credit;
}

// ---- Risk assessments ---------------------------------------------------------------

/** Assessments by weighted factors; an entity's current score is its latest one. */
class RiskBook {
  readonly rows: Row[] = [];
  constructor(private readonly ctx: Context) {}

  /** A target score for a healthy book: mostly low risk, some medium, a few high. */
  target(): number {
    const { random } = this.ctx;
    return random.weighted([random.int(82, 95), 6], [random.int(63, 77), 3], [random.int(40, 56), 1]);
  }

  assessHistory(clients: ClientInfo[], customers: CustomerInfo[]) {
    // Applicants are assessed by their onboarding workflow (buildWorkflows).
    for (const client of clients)
      if (client.status !== 'pending') this.history('client', client, false, this.ctx.random.int(1, 3));
    for (const customer of customers) this.history('customer', customer, customer.blocked, this.ctx.random.int(1, 2));
  }

  private history(entityType: 'client' | 'customer', party: Party, blocked: boolean, count: number) {
    const { random, clock } = this.ctx;
    const target = blocked ? random.int(25, 50) : this.target();
    const span = Math.max(2, Math.floor((clock.now - party.createdAt) / DAY) - 1);
    for (let n = 0; n < count; n++) {
      const daysAgo = Math.floor((span * (count - n)) / (count + 1));
      const latest = n === count - 1;
      this.assess(entityType, party, clamp(target + random.int(-6, 6), 0, 100), clock.at(daysAgo, random), {
        blocked: blocked && latest,
        adjust: latest && random.chance(0.2),
        withData: random.chance(0.7) || latest,
      });
    }
  }

  assess(
    entityType: 'client' | 'customer',
    party: Party,
    target: number,
    at: number,
    options: { blocked?: boolean; adjust?: boolean; withData?: boolean },
  ) {
    const { random, clock } = this.ctx;
    const factors: Record<string, { score: number; weight: number }> = {};
    let weighted = 0;
    for (const [name, weight] of RISK_FACTORS) {
      let score = clamp(target + random.int(-12, 12), 0, 100);
      if (name === 'accountBlockages') {
        score = options.blocked ? random.int(0, 15) : random.weighted([100, 8], [random.int(70, 90), 2]);
      }
      if (name === 'companyAge') score = clamp(40 + (new Date(at).getUTCFullYear() - party.foundedYear) * 3, 0, 100);
      factors[name] = { score, weight: weight / 100 };
      weighted += score * weight;
    }
    const automatic = clamp(Math.round(weighted / 100), 0, 100);
    const adjustment = options.adjust ? random.pick([-10, -8, -5, 5, 6, 10]) : 0;
    const score = clamp(automatic + adjustment, 0, 100);
    // A manual adjustment is recorded with who made it; otherwise the system assessed it.
    const adjuster = options.adjust ? this.ctx.decider() : undefined;
    const checkedAt = new Date(at).toISOString();
    const id = randomUUID();
    this.rows.push({
      id,
      entity_type: entityType,
      entity_id: party.id,
      category: riskCategory(score),
      score,
      automatic_score: automatic,
      manual_adjustment: adjustment,
      assessed_by: adjuster?.id ?? null,
      adjusted_by: adjuster?.id ?? null,
      adjusted_at: adjuster ? date(clock.past(at + random.int(1, 48) * HOUR)) : null,
      factors: json(factors),
      notes: !adjuster
        ? 'Automatska procjena na temelju podataka FINA-e i povijesti plaćanja.'
        : adjustment > 0
        ? 'Korekcija naviše: dugogodišnja uredna suradnja i osigurani ugovori s kupcima.'
        : 'Korekcija naniže: koncentracija na jednog kupca i pad prihoda u zadnjem kvartalu.',
      hanfa_data: options.withData
        ? json({ source: 'sandbox', supervisedEntity: false, supervisoryMeasures: [], checkedAt })
        : null,
      fina_data: options.withData
        ? json({
            source: 'sandbox',
            accountBlocked: Boolean(options.blocked),
            blockedDaysLast12Months: options.blocked ? random.int(20, 120) : 0,
            lastAnnualReportYear: new Date(at).getUTCFullYear() - 1,
            employees: random.int(4, 250),
            checkedAt,
          })
        : null,
      created_at: date(at),
      updated_at: date(at),
    });
    this.ctx.event(at, 'risk_assessment_created', 'risk_assessment', id, adjuster?.id ?? null, {
      entityType,
      companyName: party.companyName,
      score,
      category: riskCategory(score),
    });
    party.riskScore = score;
  }
}

// ---- Documents (with real PDF files) ------------------------------------------------

interface Documents {
  rows: Row[];
  files: Book['files'];
}

// [kyc_type, document type (DESIGN §9), title]
const KYC_DOCUMENTS: ReadonlyArray<readonly [string, string, string]> = [
  ['company_registration', 'kyc_document', 'Izvadak iz sudskog registra'],
  ['tax_certificate', 'kyc_document', 'Potvrda Porezne uprave o nepostojanju duga'],
  ['bank_statement', 'bank_statement', 'Izvod banke za zadnja 3 mjeseca'],
  ['financial_statements', 'financial_statement', 'Godišnji financijski izvještaj'],
  ['director_id', 'id_document', 'Osobna iskaznica direktora'],
];

function buildDocuments(
  ctx: Context,
  clients: ClientInfo[],
  customers: CustomerInfo[],
  invoices: InvoiceInfo[],
): Documents {
  const { random, clock } = ctx;
  const documents: Documents = { rows: [], files: [] };
  const add = (doc: {
    name: string;
    type: string;
    kycType?: string;
    entity?: ['client' | 'customer' | 'invoice', string];
    about: string;
    at: number;
    uploadedBy: string | null;
    signature?: 'pending' | 'signed' | 'rejected';
  }) => {
    const id = randomUUID();
    const signer = doc.signature === 'signed' ? ctx.decider() : undefined;
    const signedAt = signer ? clock.past(doc.at + random.int(1, 10) * DAY) : undefined;
    const row: Row = {
      id,
      name: doc.name,
      type: doc.type,
      kyc_type: doc.kycType ?? null,
      mime_type: 'application/pdf',
      entity_type: doc.entity?.[0] ?? null,
      entity_id: doc.entity?.[1] ?? null,
      uploaded_by: doc.uploadedBy,
      signature_required: doc.signature !== undefined,
      signature_status: doc.signature ?? null,
      signed_at: signedAt === undefined ? null : date(signedAt),
      signed_by: signer?.id ?? null,
      created_at: date(doc.at),
      updated_at: date(signedAt ?? doc.at),
    };
    documents.rows.push(row);
    // storage_key, checksum and size are filled in when seedDemo stores the file.
    documents.files.push({
      bytes: minimalPdf(doc.name.replace(/\.pdf$/, ''), [doc.about, 'FinFlow - demo dokument']),
      row,
    });
    ctx.event(doc.at, 'document_uploaded', 'document', id, doc.uploadedBy, { name: doc.name, type: doc.type });
    if (signer) ctx.event(signedAt!, 'document_signed', 'document', id, signer.id, { name: doc.name });
  };

  // KYC files of the applicants and of the newest clients (the last applicant still misses its bank statement).
  const pending = clients.filter((client) => client.status === 'pending');
  for (const client of [...pending, ...newestActive(clients)]) {
    KYC_DOCUMENTS.forEach(([kycType, type, title], index) => {
      if (client === pending[4] && kycType === 'bank_statement') return;
      add({
        name: `${title} – ${client.companyName}.pdf`,
        type,
        kycType,
        entity: ['client', client.id],
        about: `${client.companyName}, OIB ${client.oib}`,
        at: clock.past(client.createdAt + index * MINUTE),
        uploadedBy: client.row.created_by as string | null,
      });
    });
  }
  // Factoring agreements, signed electronically (a few still waiting, one refused).
  const active = clients.filter((client) => client.status === 'active');
  random
    .shuffle(active)
    .slice(0, 16)
    .forEach((client, index) => {
      add({
        name: `Ugovor o faktoringu ${client.row.agreement_number} – ${client.companyName}.pdf`,
        type: 'contract',
        entity: ['client', client.id],
        about: `Ugovor o faktoringu, regres: ${client.row.recourse ? 'da' : 'ne'}, predujam ${client.advanceRate} %`,
        at: clock.past(client.createdAt + DAY),
        uploadedBy: ctx.decider().id,
        signature: index < 12 ? 'signed' : index < 15 ? 'pending' : 'rejected',
      });
    });
  for (const invoice of random.shuffle(invoices.filter((candidate) => candidate.status !== 'rejected')).slice(0, 20)) {
    add({
      name: `Faktura ${invoice.number} – ${invoice.client.companyName}.pdf`,
      type: 'invoice',
      entity: ['invoice', invoice.id],
      about: `Kupac: ${invoice.customer.companyName}, iznos ${money(invoice.amount)} EUR, dospijeće ${invoice.dueDay}`,
      at: invoice.createdAt,
      uploadedBy: invoice.row.created_by as string,
    });
  }
  // Assignment notices the customer must countersign before financing.
  for (const invoice of invoices.filter((candidate) => candidate.status === 'approved').slice(0, 4)) {
    add({
      name: `Obavijest o cesiji ${invoice.number} – ${invoice.customer.companyName}.pdf`,
      type: 'contract',
      entity: ['invoice', invoice.id],
      about: `Ustup potraživanja ${invoice.client.companyName} prema ${invoice.customer.companyName}`,
      at: clock.past(invoice.createdAt + DAY),
      uploadedBy: ctx.anyone().id,
      signature: 'pending',
    });
  }
  for (const customer of random.shuffle(customers).slice(0, 6)) {
    add({
      name: `GFI ${new Date(clock.now).getUTCFullYear() - 1} – ${customer.companyName}.pdf`,
      type: 'financial_statement',
      entity: ['customer', customer.id],
      about: `Godišnji financijski izvještaj, OIB ${customer.oib}`,
      at: clock.at(random.int(5, 120), random),
      uploadedBy: ctx.anyone().id,
    });
  }
  for (const [name, type] of [
    ['Opći uvjeti poslovanja – faktoring.pdf', 'contract'],
    ['Cjenik usluga faktoringa.pdf', 'contract'],
    ['Politika sprječavanja pranja novca.pdf', 'kyc_document'],
  ] as const) {
    add({
      name,
      type,
      about: 'Interni dokument',
      at: clock.at(random.int(1, 300), random),
      uploadedBy: ctx.decider().id,
    });
  }
  return documents;
}

/** The six newest active clients: they went through the onboarding workflow. */
function newestActive(clients: ClientInfo[]): ClientInfo[] {
  return clients
    .filter((client) => client.status === 'active')
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, 6);
}

// ---- Tasks ----------------------------------------------------------------------------

interface TaskSpec {
  title: string;
  description: string;
  type: string;
  priority: string;
  status: 'pending' | 'in_progress' | 'completed' | 'cancelled';
  entity: [string, string] | null;
  createdAt: number;
  /** Days after creation; an open task past it shows as late. */
  dueInDays: number;
  completedAt?: number;
  /** undefined: someone at random, or nobody (unassigned). */
  assignee?: Staff | null;
  /** null: opened by a workflow. */
  createdBy?: string | null;
  workflow?: [instanceId: string, step: number];
  notes?: string;
}

class TaskBook {
  readonly rows: Row[] = [];
  constructor(private readonly ctx: Context) {}

  open(task: TaskSpec): string {
    const { random, clock } = this.ctx;
    const id = randomUUID();
    const assignee = task.assignee === undefined ? (random.chance(0.8) ? this.ctx.anyone() : null) : task.assignee;
    const createdBy = task.createdBy === undefined ? this.ctx.anyone().id : task.createdBy;
    this.rows.push({
      id,
      title: task.title,
      description: task.description,
      type: task.type,
      priority: task.priority,
      status: task.status,
      assigned_to: assignee?.id ?? null,
      // 15:00 UTC (16:00 or 17:00 in Zagreb) on the due day.
      due_date: date(Math.floor(task.createdAt / DAY) * DAY + task.dueInDays * DAY + 15 * HOUR),
      entity_type: task.entity?.[0] ?? null,
      entity_id: task.entity?.[1] ?? null,
      notes: task.notes ?? null,
      workflow_instance_id: task.workflow?.[0] ?? null,
      workflow_step: task.workflow?.[1] ?? null,
      created_by: createdBy,
      created_at: date(task.createdAt),
      completed_at: task.completedAt === undefined ? null : date(task.completedAt),
      updated_at: date(task.completedAt ?? task.createdAt),
    });
    const details = { title: task.title, type: task.type };
    this.ctx.event(task.createdAt, 'task_created', 'task', id, createdBy, details);
    if (task.completedAt !== undefined) {
      this.ctx.event(task.completedAt, 'task_completed', 'task', id, assignee?.id ?? null, details);
    } else if (task.status !== 'pending') {
      const at = clock.past(task.createdAt + 3 * HOUR);
      this.ctx.event(at, 'task_updated', 'task', id, assignee?.id ?? null, { ...details, status: task.status });
    }
    return id;
  }
}

/** Day-to-day tasks: every type, priority and status, linked to what they are about. */
function buildDailyTasks(
  ctx: Context,
  tasks: TaskBook,
  book: { clients: ClientInfo[]; customers: CustomerInfo[]; invoices: InvoiceInfo[]; documents: Row[]; credit: Credit },
) {
  const { random, clock } = ctx;
  const TYPES = [
    'kyc_verification',
    'risk_assessment',
    'manual_review',
    'document_review',
    'customer_contact',
    'limit_approval',
  ];
  const PRIORITIES = ['urgent', 'high', 'medium', 'normal', 'low'];
  const STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
  const pending = book.clients.filter((client) => client.status === 'pending');
  const active = book.clients.filter((client) => client.status === 'active');
  const overdue = book.invoices.filter((i) => i.status === 'financed' && Date.parse(i.dueDay) < clock.midnight);

  for (let i = 0; i < 48; i++) {
    const type = TYPES[i % TYPES.length];
    const status = STATUSES[Math.floor(i / 3) % STATUSES.length];
    const open = status === 'pending' || status === 'in_progress';
    const createdAt = clock.at(open ? random.int(0, 10) : random.int(5, 90), random);
    let title: string;
    let description: string;
    let entity: [string, string];
    if (type === 'kyc_verification') {
      const client = random.pick([...pending, ...newestActive(book.clients)]);
      title = `KYC provjera – ${client.companyName}`;
      description = 'Provjeriti stvarne vlasnike i usporediti izvadak iz sudskog registra s podacima iz registracije.';
      entity = ['client', client.id];
    } else if (type === 'risk_assessment') {
      const customer = random.pick(book.customers);
      title = `Revizija procjene rizika – ${customer.companyName}`;
      description = 'Ažurirati procjenu rizika nakon nove FINA provjere.';
      entity = ['customer', customer.id];
    } else if (type === 'manual_review') {
      const invoice = random.pick(book.invoices);
      title = `Ručna provjera fakture ${invoice.number} – ${invoice.client.companyName}`;
      description = 'Usporediti fakturu s otpremnicom i narudžbenicom kupca.';
      entity = ['invoice', invoice.id];
    } else if (type === 'document_review') {
      const document = random.pick(book.documents);
      title = `Pregled dokumenta: ${document.name}`;
      description = 'Provjeriti potpunost i valjanost dokumenta.';
      entity = ['document', document.id as string];
    } else if (type === 'customer_contact') {
      const invoice = overdue.length ? random.pick(overdue) : random.pick(book.invoices);
      title = `Kontaktirati kupca ${invoice.customer.companyName} – faktura ${invoice.number}`;
      description = 'Faktura je dospjela, a uplata nije zaprimljena. Dogovoriti rok plaćanja.';
      entity = ['customer', invoice.customer.id];
    } else {
      const request = book.credit.pending.length ? random.pick(book.credit.pending) : undefined;
      const client = request?.client ?? random.pick(active);
      title = `Odobrenje kreditnog limita – ${client.companyName}`;
      description = 'Pregledati financijske pokazatelje i odlučiti o zahtjevu za limit.';
      entity = request ? ['credit_limit_request', request.id] : ['client', client.id];
    }
    tasks.open({
      title,
      description,
      type,
      priority: PRIORITIES[i % PRIORITIES.length],
      status,
      // A few general tasks are about nothing in particular.
      entity: i % 16 === 15 ? null : entity,
      createdAt,
      dueInDays: random.int(1, 10),
      completedAt: status === 'completed' ? clock.past(clock.office(createdAt + random.int(2, 72) * HOUR)) : undefined,
      notes:
        status === 'cancelled'
          ? 'Otkazano: zadatak više nije potreban.'
          : status === 'completed'
          ? 'Riješeno.'
          : undefined,
    });
  }
}

// ---- Workflows and their step history ---------------------------------------------

const TASK_TITLES: Record<string, (label: string) => string> = {
  kyc_verification: (label) => `KYC provjera – ${label}`,
  limit_approval: (label) => `Odobrenje kreditnog limita – ${label}`,
  manual_review: (label) => `Ručna provjera – ${label}`,
  risk_assessment: (label) => `Pregled procjene rizika – ${label}`,
};

interface InstanceSpec {
  type: WorkflowType;
  entity: [string, string];
  label: string;
  status: 'running' | 'completed' | 'failed' | 'paused';
  /** Index of the step the instance is at; ignored for completed ones (they stand at steps.length). */
  current: number;
  startedAt: number;
  startedBy: string | null;
  context: Record<string, unknown>;
  error?: string;
  waitingTask?: 'pending' | 'in_progress';
}

function buildWorkflows(
  ctx: Context,
  book: { clients: ClientInfo[]; customers: CustomerInfo[]; ledger: Ledger; risk: RiskBook; tasks: TaskBook },
  reference: ReferenceRowIds,
) {
  const { random, clock } = ctx;
  const definitions: Row[] = [];
  const instances: Row[] = [];
  const runs: Row[] = [];
  const admin = ctx.staff.all.find((user) => user.role === 'admin') ?? ctx.staff.deciders[0];
  // The reference definitions, set up by the admin when the company started with FinFlow.
  for (const workflow of REFERENCE_WORKFLOWS) {
    const at = clock.at(780, random);
    definitions.push({ id: reference.workflows[workflow.type], created_by: admin.id, created_at: date(at), updated_at: date(at) });
  }

  /**
   * An instance and its step runs: the steps before `current` completed
   * (manual ones through a completed task), then its state at `current`: a
   * waiting run and an open task (running), three failed attempts (failed),
   * or nothing yet (paused).
   */
  const run = (spec: InstanceSpec) => {
    const workflow = REFERENCE_WORKFLOWS.find((candidate) => candidate.type === spec.type)!;
    const id = randomUUID();
    const done = spec.status === 'completed' ? workflow.steps.length : spec.current;
    const began = clock.past(spec.startedAt);
    let cursor = began;
    const after = (ms: number) => (cursor = clock.past(cursor + ms));
    const stepRun = (index: number, fields: Row) =>
      runs.push({
        id: randomUUID(),
        instance_id: id,
        step_index: index,
        step_name: workflow.steps[index].name,
        step_type: workflow.steps[index].type,
        attempt: 1,
        ...fields,
      });
    for (let index = 0; index < done; index++) {
      const step = workflow.steps[index];
      const startedAt = after(random.int(1, 20) * 1000);
      let outcome: Record<string, unknown> = { ok: true };
      if (step.type === 'manual') {
        const doneAt = (cursor = clock.past(clock.office(cursor + random.int(2, 40) * HOUR)));
        const assignee = ctx.decider();
        const taskId = book.tasks.open({
          title: TASK_TITLES[step.taskType!](spec.label),
          description: `${workflow.name}: korak „${step.name}”.`,
          type: step.taskType!,
          priority: 'high',
          status: 'completed',
          entity: spec.entity,
          createdAt: startedAt,
          dueInDays: 2,
          completedAt: doneAt,
          assignee,
          createdBy: null,
          workflow: [id, index],
        });
        outcome = { taskId, completedBy: assignee.id };
      } else {
        after(random.int(1, 30) * 1000);
      }
      stepRun(index, {
        status: 'completed',
        outcome: json(outcome),
        started_at: date(startedAt),
        finished_at: date(cursor),
      });
    }
    let lastError: string | null = null;
    if (spec.status === 'running') {
      const step = workflow.steps[spec.current];
      const startedAt = after(random.int(1, 20) * 1000);
      const taskId = book.tasks.open({
        title: TASK_TITLES[step.taskType!](spec.label),
        description: `${workflow.name}: korak „${step.name}” čeka obradu.`,
        type: step.taskType!,
        priority: random.pick(['urgent', 'high', 'high', 'medium']),
        status: spec.waitingTask ?? 'pending',
        entity: spec.entity,
        createdAt: startedAt,
        dueInDays: random.int(1, 3),
        createdBy: null,
        workflow: [id, spec.current],
      });
      stepRun(spec.current, { status: 'waiting', outcome: json({ taskId }), started_at: date(startedAt) });
    } else if (spec.status === 'failed') {
      // Retried with backoff, then the instance failed with the error kept.
      lastError = spec.error!;
      for (let attempt = 1; attempt <= 3; attempt++) {
        const startedAt = after(attempt === 1 ? 5000 : 2 ** attempt * MINUTE);
        stepRun(spec.current, {
          status: 'failed',
          attempt,
          error: lastError,
          started_at: date(startedAt),
          finished_at: date(after(random.int(5, 30) * 1000)),
        });
      }
    } else if (spec.status === 'paused') {
      after(random.int(1, 24) * HOUR);
    }
    const context =
      spec.status === 'paused'
        ? { ...spec.context, pausedBy: ctx.decider().id, pausedAt: new Date(cursor).toISOString() }
        : spec.context;
    instances.push({
      id,
      workflow_id: reference.workflows[spec.type],
      status: spec.status,
      entity_type: spec.entity[0],
      entity_id: spec.entity[1],
      current_step: done,
      steps: json(workflow.steps),
      context: json(context),
      last_error: lastError,
      started_by: spec.startedBy,
      started_at: date(began),
      completed_at: spec.status === 'completed' ? date(cursor) : null,
      updated_at: date(cursor),
    });
    ctx.event(began, 'workflow_started', 'workflow_instance', id, spec.startedBy, {
      workflowType: spec.type,
      entityType: spec.entity[0],
      label: spec.label,
    });
  };

  // Client onboarding: the newest active clients went through it; the applicants are on the way.
  for (const client of newestActive(book.clients)) {
    run({
      type: 'client_onboarding',
      entity: ['client', client.id],
      label: client.companyName,
      status: 'completed',
      current: 0,
      startedAt: client.createdAt + 10 * MINUTE,
      startedBy: client.row.created_by as string,
      context: { clientId: client.id },
    });
  }
  const onboardingPlan: Array<Pick<InstanceSpec, 'status' | 'current' | 'waitingTask' | 'error'>> = [
    { status: 'running', current: 3, waitingTask: 'pending' },
    { status: 'running', current: 3, waitingTask: 'in_progress' },
    { status: 'running', current: 4, waitingTask: 'pending' },
    { status: 'failed', current: 1, error: 'FINA: usluga privremeno nedostupna (HTTP 503) nakon 3 pokušaja' },
    { status: 'paused', current: 0 },
  ];
  book.clients
    .filter((client) => client.status === 'pending')
    .forEach((client, index) => {
      const plan = onboardingPlan[index];
      const startedAt = client.createdAt + 5 * MINUTE;
      // Past its third step the workflow has made the automatic assessment.
      if (plan.current > 2) {
        book.risk.assess('client', client, book.risk.target(), clock.past(startedAt + 2 * MINUTE), { withData: true });
      }
      run({
        ...plan,
        type: 'client_onboarding',
        entity: ['client', client.id],
        label: client.companyName,
        startedAt,
        startedBy: null,
        context: { clientId: client.id, source: 'onboarding' },
      });
    });

  // Invoice verification of the newest invoices.
  const newest = [...book.ledger.invoices].sort((a, b) => b.createdAt - a.createdAt);
  const verificationPlan: Array<[string, InstanceSpec['status'], number]> = [
    ['pending', 'running', 3],
    ['pending', 'running', 3],
    ['pending', 'running', 3],
    ['pending', 'running', 3],
    ['pending', 'failed', 2],
    ['pending', 'paused', 3],
    ['verified', 'completed', 0],
    ['verified', 'completed', 0],
    ['approved', 'completed', 0],
    ['approved', 'completed', 0],
    ['financed', 'completed', 0],
    ['financed', 'completed', 0],
  ];
  const taken = new Set<InvoiceInfo>();
  for (const [invoiceStatus, status, current] of verificationPlan) {
    const invoice = newest.find(
      (i) => i.status === invoiceStatus && i.row.verification_status !== 'failed' && !taken.has(i),
    );
    if (!invoice) continue;
    taken.add(invoice);
    run({
      type: 'invoice_verification',
      entity: ['invoice', invoice.id],
      label: `${invoice.number} (${invoice.client.companyName})`,
      status,
      current,
      startedAt: invoice.createdAt + 2 * MINUTE,
      startedBy: invoice.row.created_by as string,
      context: { invoiceId: invoice.id, invoiceNumber: invoice.number },
      error: 'FINA: kupac nije pronađen u registru (OIB ne postoji u sandbox podacima)',
      waitingTask: random.pick(['pending', 'in_progress'] as const),
    });
  }

  // Periodic risk reviews of customers.
  const reviewPlan: Array<[InstanceSpec['status'], number]> = [
    ['completed', 0],
    ['completed', 0],
    ['completed', 0],
    ['running', 3],
    ['paused', 2],
    ['failed', 0],
  ];
  random
    .shuffle(book.customers)
    .slice(0, reviewPlan.length)
    .forEach((customer, index) => {
      const [status, current] = reviewPlan[index];
      run({
        type: 'risk_assessment',
        entity: ['customer', customer.id],
        label: customer.companyName,
        status,
        current,
        startedAt: clock.at(random.int(1, 40), random),
        startedBy: ctx.decider().id,
        context: { customerId: customer.id },
        error: 'HANFA: istek vremena za odgovor (timeout 10 s)',
        waitingTask: 'pending',
      });
    });

  // Collections: pending payments wait for confirmation; recently confirmed ones went through.
  const invoiceNumber = (payment: Row) => book.ledger.invoices.find((i) => i.id === payment.invoice_id)!.number;
  const paymentRun = (
    payment: Row,
    status: InstanceSpec['status'],
    current: number,
    waitingTask?: 'pending' | 'in_progress',
  ) =>
    run({
      type: 'payment_processing',
      entity: ['payment', payment.id as string],
      label: `uplata za ${invoiceNumber(payment)}`,
      status,
      current,
      startedAt: (payment.created_at as Date).getTime() + MINUTE,
      startedBy: null,
      context: { paymentId: payment.id },
      error: 'Uplata se ne može upariti: poziv na broj ne odgovara nijednoj fakturi',
      waitingTask,
    });
  book.ledger.payments
    .filter((payment) => payment.status === 'pending')
    .slice(0, 5)
    .forEach((payment, index) =>
      index === 4
        ? paymentRun(payment, 'failed', 0)
        : paymentRun(payment, 'running', 1, index === 0 ? 'in_progress' : 'pending'),
    );
  book.ledger.payments
    .filter((payment) => payment.status === 'confirmed')
    .sort((a, b) => (b.processed_at as Date).getTime() - (a.processed_at as Date).getTime())
    .slice(0, 6)
    .forEach((payment, index) =>
      index === 5 ? paymentRun(payment, 'paused', 2) : paymentRun(payment, 'completed', 0),
    );

  return { definitions, instances, runs };
}

// ---- Email: templates, campaigns, logs ----------------------------------------------

/**
 * The book's templates: the four reference ones of the event triggers (first,
 * in this order), then the demo's own: two manual ones for campaigns and a
 * retired payment reminder.
 */
const TEMPLATES: ReadonlyArray<{ name: string; trigger: string; active: boolean; subject: string; body: string; reference?: true }> = [
  ...(['client_onboarding', 'invoice_verified', 'payment_due', 'payment_overdue'] as const).map((trigger) => ({
    ...REFERENCE_TEMPLATES.find((template) => template.trigger === trigger)!,
    active: true,
    reference: true as const,
  })),
  {
    name: 'Opća obavijest klijentima',
    trigger: 'manual',
    active: true,
    subject: 'Obavijest za {{company_name}}',
    body: signed(['Poštovani {{client_name}},', '', 'obavještavamo vas o novostima u poslovanju FinFlowa.']),
  },
  {
    name: 'Mjesečni pregled portfelja',
    trigger: 'manual',
    active: true,
    subject: 'Mjesečni pregled faktoringa – {{company_name}}',
    body: signed([
      'Poštovani {{client_name}},',
      '',
      'u privitku je pregled financiranih i naplaćenih faktura tvrtke {{company_name}} za prethodni mjesec.',
    ]),
  },
  {
    name: 'Podsjetnik na dospijeće (stara verzija)',
    trigger: 'payment_due',
    active: false,
    subject: 'Faktura {{invoice_number}} dospijeva',
    body: signed(['Poštovani,', '', 'faktura {{invoice_number}} ({{amount}}) dospijeva uskoro.']),
  },
];
const [WELCOME, VERIFIED, DUE, OVERDUE, GENERAL, MONTHLY] = [0, 1, 2, 3, 4, 5];

function signed(body: string[]): string {
  return [...body, '', 'Srdačan pozdrav,', 'FinFlow tim'].join('\n');
}

function buildEmail(ctx: Context, clients: ClientInfo[], invoices: InvoiceInfo[], reference: ReferenceRowIds) {
  const { random, clock } = ctx;
  const templateIds = TEMPLATES.map((template) =>
    template.reference ? reference.templates[template.trigger as keyof ReferenceRowIds['templates']] : randomUUID(),
  );
  const usage = TEMPLATES.map(() => 0);
  const logs: Row[] = [];
  const send = (mail: {
    template: number;
    campaignId?: string;
    client: ClientInfo;
    at: number;
    invoice?: InvoiceInfo;
    failed?: boolean;
  }) => {
    const template = TEMPLATES[mail.template];
    const status = mail.failed
      ? 'failed'
      : random.weighted(['sent', 15], ['delivered', 35], ['opened', 25], ['clicked', 15], ['failed', 10]);
    const openedAt =
      status === 'opened' || status === 'clicked' ? clock.past(mail.at + random.int(5, 2000) * MINUTE) : undefined;
    const clickedAt = status === 'clicked' ? clock.past(openedAt! + random.int(1, 30) * MINUTE) : undefined;
    const values: Record<string, string> = {
      company_name: mail.client.companyName,
      client_name: mail.client.contactPerson,
      invoice_number: mail.invoice?.number ?? '',
      amount: mail.invoice ? `${money(mail.invoice.amount).replace('.', ',')} EUR` : '',
    };
    logs.push({
      id: randomUUID(),
      template_id: templateIds[mail.template],
      campaign_id: mail.campaignId ?? null,
      client_id: mail.client.id,
      recipient: mail.client.email,
      subject: template.subject.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? ''),
      status,
      message_id: status === 'failed' ? null : `<${randomUUID()}@finflow.local>`,
      error_message:
        status === 'failed'
          ? random.pick(['550 5.1.1 Mailbox unavailable', 'SMTP timeout nakon 30 s', '552 5.2.2 Mailbox full'])
          : null,
      attempts: status === 'failed' ? 3 : 1,
      sent_at: status === 'failed' ? null : date(mail.at),
      opened_at: openedAt === undefined ? null : date(openedAt),
      clicked_at: clickedAt === undefined ? null : date(clickedAt),
      created_at: date(mail.at - random.int(1, 60) * 1000),
      updated_at: date(clickedAt ?? openedAt ?? mail.at),
    });
    usage[mail.template] += 1;
  };

  // Triggered mail: welcome on onboarding, invoice verified, due and overdue reminders.
  for (const client of newestActive(clients))
    send({ template: WELCOME, client, at: clock.past(client.createdAt + 3 * DAY) });
  const verified = invoices.filter((i) => i.row.verified_at).sort((a, b) => b.createdAt - a.createdAt);
  for (const invoice of verified.slice(0, 30)) {
    const at = clock.past((invoice.row.verified_at as Date).getTime() + MINUTE);
    send({ template: VERIFIED, client: invoice.client, invoice, at });
  }
  for (const invoice of invoices.filter((i) => i.status === 'financed').slice(0, 25)) {
    const due = Date.parse(invoice.dueDay);
    if (due < clock.midnight)
      send({ template: OVERDUE, client: invoice.client, invoice, at: clock.past(due + DAY + 8 * HOUR) });
    else if (due - 7 * DAY < clock.now) {
      send({ template: DUE, client: invoice.client, invoice, at: clock.past(due - 7 * DAY + 8 * HOUR) });
    }
  }

  // One campaign in each status; the sending one is halfway through its list.
  const active = clients.filter((client) => client.status === 'active');
  const onboarded = clients.filter((client) => client.status !== 'pending');
  const campaigns: Row[] = [];
  const CAMPAIGNS = [
    {
      name: 'Novogodišnja čestitka i radno vrijeme',
      template: GENERAL,
      recipients: 'all_clients',
      status: 'completed',
      daysAgo: 40,
    },
    {
      name: 'Mjesečni pregled portfelja',
      template: MONTHLY,
      recipients: 'active_clients',
      status: 'sending',
      daysAgo: 0,
    },
    { name: 'Novi uvjeti faktoringa', template: GENERAL, recipients: 'specific_clients', status: 'draft', daysAgo: 3 },
    {
      name: 'Podsjetnik za obnovu dokumentacije',
      template: GENERAL,
      recipients: 'active_clients',
      status: 'active',
      daysAgo: 2,
      scheduledIn: 5,
    },
    {
      name: 'Anketa o zadovoljstvu klijenata',
      template: GENERAL,
      recipients: 'all_clients',
      status: 'failed',
      daysAgo: 15,
    },
  ];
  for (const spec of CAMPAIGNS) {
    const id = randomUUID();
    const createdAt = clock.at(spec.daysAgo + (spec.status === 'draft' ? 0 : 1), random);
    const started = ['sending', 'completed', 'failed'].includes(spec.status);
    const startedAt = started ? clock.past(createdAt + HOUR) : undefined;
    const audience =
      spec.recipients === 'all_clients'
        ? onboarded
        : spec.recipients === 'active_clients'
        ? active
        : random.shuffle(active).slice(0, 4);
    let completedAt: number | undefined;
    if (startedAt !== undefined) {
      const reached =
        spec.status === 'completed'
          ? audience
          : spec.status === 'sending'
          ? audience.slice(0, Math.ceil(audience.length / 2))
          : audience.slice(0, 3);
      reached.forEach((client, index) => {
        send({
          template: spec.template,
          campaignId: id,
          client,
          at: clock.past(startedAt + index * 2000),
          failed: spec.status === 'failed',
        });
      });
      if (spec.status === 'completed') completedAt = clock.past(startedAt + audience.length * 2000 + MINUTE);
    }
    const creator = ctx.decider();
    campaigns.push({
      id,
      name: spec.name,
      template_id: templateIds[spec.template],
      recipients: spec.recipients,
      specific_client_ids: spec.recipients === 'specific_clients' ? audience.map((client) => client.id) : [],
      status: spec.status,
      scheduled_at: spec.scheduledIn === undefined ? null : date(clock.midnight + spec.scheduledIn * DAY + 8 * HOUR),
      started_at: startedAt === undefined ? null : date(startedAt),
      completed_at: completedAt === undefined ? null : date(completedAt),
      total_recipients: startedAt === undefined ? null : audience.length,
      created_by: creator.id,
      created_at: date(createdAt),
      updated_at: date(completedAt ?? startedAt ?? createdAt),
    });
    ctx.event(createdAt, 'email_campaign_created', 'email_campaign', id, creator.id, {
      name: spec.name,
      recipients: spec.recipients,
    });
  }

  const referenceTemplates: Row[] = [];
  const newTemplates: Row[] = [];
  TEMPLATES.forEach((template, index) => {
    const at = clock.at(random.int(300, 700), random);
    const history = {
      id: templateIds[index],
      // The number of emails sent with it, as the logs show.
      usage_count: usage[index],
      created_by: ctx.decider().id,
      created_at: date(at),
      updated_at: date(clock.past(at + random.int(0, 200) * DAY)),
    };
    if (template.reference) referenceTemplates.push(history);
    else {
      newTemplates.push({
        ...history,
        name: template.name,
        trigger: template.trigger,
        subject: template.subject,
        body: template.body,
        is_active: template.active,
      });
    }
  });
  logs.sort((a, b) => (a.created_at as Date).getTime() - (b.created_at as Date).getTime());
  return { referenceTemplates, newTemplates, campaigns, logs };
}

// ---- Integrations ----------------------------------------------------------------------

/** How each reference integration has fared in the book: its status and the calls its log shows. */
const INTEGRATION_HISTORY: Record<ReferenceIntegrationType, { status: string; operations: string[] }> = {
  hanfa: { status: 'active', operations: ['healthCheck', 'entityLookup'] },
  fina: { status: 'active', operations: ['healthCheck', 'companyLookup', 'accountStatus'] },
  // Active: the fee e-invoices go out through it (sandbox mode) and the sync job receives through it.
  einvoicing: { status: 'active', operations: ['healthCheck', 'sendDocument', 'receiveDocuments'] },
  sendgrid: { status: 'active', operations: ['healthCheck', 'sendEmail'] },
  docusign: { status: 'testing', operations: ['healthCheck', 'createEnvelope', 'envelopeStatus'] },
};
type ReferenceIntegrationType = keyof ReferenceRowIds['integrations'];

function buildIntegrations(ctx: Context, reference: ReferenceRowIds) {
  const { random, clock } = ctx;
  const integrations: Row[] = [];
  const logs: Row[] = [];
  for (const { type } of REFERENCE_INTEGRATIONS) {
    const spec = { type, ...INTEGRATION_HISTORY[type] };
    const id = reference.integrations[type];
    const createdAt = clock.at(random.int(600, 780), random);
    let lastCheck = 0;
    let lastError: string | null = null;
    let errors = 0;
    // Twelve calls over the last three weeks, oldest first; the e-signature sandbox timed out twice lately.
    for (let n = 11; n >= 0; n--) {
      const at = clock.past(clock.midnight - n * 2 * DAY + random.int(0, 23) * HOUR);
      const success =
        spec.type === 'docusign'
          ? n > 2 || n === 0
          : spec.type === 'einvoicing'
          ? random.chance(0.8)
          : random.chance(0.95);
      const message = success
        ? 'OK (sandbox)'
        : spec.type === 'docusign'
        ? 'Timeout nakon 5000 ms (POST /envelopes)'
        : 'HTTP 503 Service Unavailable';
      if (!success) {
        errors += 1;
        lastError = message;
      }
      lastCheck = Math.max(lastCheck, at);
      logs.push({
        id: randomUUID(),
        integration_id: id,
        operation: n % 3 === 0 ? 'healthCheck' : random.pick(spec.operations),
        success,
        duration_ms: success ? random.int(40, 900) : random.int(3000, 5000),
        message,
        created_at: date(at),
      });
    }
    // The row itself (name, mode, enabled) stays as installed; the book adds its health history.
    integrations.push({
      id,
      status: spec.status,
      last_check: date(lastCheck),
      last_sync: spec.status === 'active' ? date(clock.at(0, random)) : null,
      error_count: errors,
      last_error: lastError,
      created_at: date(createdAt),
      updated_at: date(lastCheck),
    });
  }
  return { integrations, logs };
}

// ---- Staff sign-ins and the activity log ------------------------------------------------

function buildActivity(ctx: Context) {
  const { random, clock, staff } = ctx;
  const lastLogins: Array<[string, number]> = [];
  for (const user of staff.all) {
    let last = 0;
    for (let day = 14; day >= 0; day--) {
      if (!random.chance(0.4)) continue;
      last = clock.at(day, random);
      ctx.event(last, 'user_login', 'user', user.id, user.id, { method: 'password+totp' });
    }
    if (last) lastLogins.push([user.id, last]);
  }
  // The most recent 300 events, as the monitoring and audit views read them; office network addresses for staff.
  const recent = [...ctx.events]
    .sort((a, b) => b.at - a.at)
    .slice(0, 300)
    .reverse();
  const rows = recent.map((entry) => {
    const index = staff.all.findIndex((user) => user.id === entry.userId);
    return {
      id: randomUUID(),
      action: entry.action,
      entity_type: entry.entityType,
      entity_id: entry.entityId,
      user_id: entry.userId,
      ip_address: index >= 0 ? `10.20.1.${11 + index}` : entry.action === 'client_created' ? '93.142.51.7' : null,
      details: json(entry.details),
      created_at: date(entry.at),
    };
  });
  return { rows, lastLogins };
}
