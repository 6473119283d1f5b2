import type { NonAttribute } from 'sequelize';
import { withTimestamps } from './base.ts';
import { defaulted, instant, integer, jsonb, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { RISK_CATEGORIES, RISK_ENTITY_TYPES } from './enums.ts';
import type { User } from './User.ts';

const columns = withTimestamps({
  entityType: oneOf(RISK_ENTITY_TYPES),
  entityId: uuid,
  category: oneOf(RISK_CATEGORIES),
  /** Must equal clamp(automaticScore + manualAdjustment, 0, 100); the database checks it. */
  score: integer,
  automaticScore: integer,
  manualAdjustment: defaulted(integer),
  /** NULL means the system made it ('system' in the API). */
  assessedBy: nullable(uuid),
  adjustedBy: nullable(uuid),
  adjustedAt: nullable(instant),
  /** Factor name → score, or an object with a score. */
  factors: defaulted(jsonb<Record<string, unknown>>()),
  notes: nullable(text),
  hanfaData: nullable(jsonb<Record<string, unknown>>()),
  finaData: nullable(jsonb<Record<string, unknown>>()),
});

/** A risk score of a client or customer: automatic score plus a recorded manual adjustment. */
export class RiskAssessment extends tableModel('risk_assessments', columns) {
  declare assessor?: NonAttribute<User | null>;
  declare adjuster?: NonAttribute<User | null>;
}
