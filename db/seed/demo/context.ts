import type { FeeModel } from '../../../app/agreements/fees.ts';
import { croatianIban, oibCheckDigit } from '../../../app/utils/validation.ts';
import type { Clock, Random, Row } from './plumbing.ts';
import { BANK_CODES, CITIES, FIRST_NAMES, LAST_NAMES } from './croatia.ts';
import type { Staff, StaffSet } from './staff.ts';

// ---------------------------------------------------------------------------
// The book

export interface Party {
  id: string;
  companyName: string;
  oib: string;
  email: string;
  iban: string;
  createdAt: number;
  foundedYear: number;
  riskScore: number | null;
}

export interface ClientInfo extends Party {
  status: 'active' | 'pending' | 'inactive';
  size: 0 | 1 | 2;
  /** The versions of its factoring agreement, oldest first; none before its KYC is approved. */
  agreements: AgreementInfo[];
  contactPerson: string;
  customers: CustomerInfo[];
  row: Row;
}

/** One signed version of a demo client's factoring agreement (docs/money.md#the-agreement). */
export interface AgreementInfo {
  id: string;
  version: number;
  number: string;
  effectiveFrom: string;
  advanceRate: string;
  feeModel: FeeModel;
  feeRate: string;
  minimumFee: string;
  adminFee: string;
  recourse: boolean;
  row: Row;
}

export interface CustomerInfo extends Party {
  blocked: boolean;
  row: Row;
}

export interface InvoiceInfo {
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

export interface Book {
  tables: Array<[string, Row[]]>;
  /** Rows that exist already (the reference data), by id: the columns the book sets. */
  updates: Array<[string, Row[]]>;
  lastLogins: Array<[string, number]>;
  files: Array<{ bytes: Buffer; row: Row }>;
}

/** What every part of the book draws on: the PRNG, the clock, the staff, and the activity it records. */
export class Context {
  readonly events: Event[] = [];
  private readonly usedOibs = new Set<string>();

  constructor(
    readonly random: Random,
    readonly clock: Clock,
    readonly staff: StaffSet,
  ) {}

  event(at: number, action: string, entityType: string | null, entityId: string | null, userId: string | null, details: Record<string, unknown>) {
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
    if (random.chance(0.25)) return `+385 9${random.pick(['1', '2', '5', '8', '9'])} ${random.digits(3)} ${random.digits(4)}`;
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
    return `${year}-${String(this.random.int(1, 12)).padStart(2, '0')}-${String(this.random.int(1, 28)).padStart(2, '0')}`;
  }
}

export const cityOf = (name: string) => CITIES.find(([cityName]) => cityName === name)!;
