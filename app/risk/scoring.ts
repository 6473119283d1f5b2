/**
 * The arithmetic of a risk score (docs/domain-model.md), shared by the server and the
 * browser (the detail view shows the same sum). Pure and exact: weights are
 * turned into whole basis points and factor scores are whole numbers, so
 * Σ weight × score is integer arithmetic and rounds the same way everywhere —
 * an auditor with a calculator gets the stored number.
 */

export const RISK_CATEGORIES = ['low', 'medium', 'high'] as const;
export type RiskCategory = (typeof RISK_CATEGORIES)[number];

/** Thresholds (docs/screens.md): 80 or more low risk (green), 60–79 medium (amber), below 60 high (red). */
export const LOW_RISK_FROM = 80;
export const MEDIUM_RISK_FROM = 60;

export function categoryOf(score: number): RiskCategory {
  if (score >= LOW_RISK_FROM) return 'low';
  if (score >= MEDIUM_RISK_FROM) return 'medium';
  return 'high';
}

/** Radix colour of a score (docs/screens.md risk score colour). */
export function scoreColour(score: number): 'green' | 'amber' | 'red' {
  const category = categoryOf(score);
  return category === 'low' ? 'green' : category === 'medium' ? 'amber' : 'red';
}

export function clampScore(value: number): number {
  return Math.min(100, Math.max(0, value));
}

/** What a stored factor needs for the sum; assessments also keep `value` and `explanation`. */
export interface WeightedFactor {
  score: number;
  weight: number;
}

export interface ScoreResult {
  automaticScore: number;
  score: number;
  category: RiskCategory;
}

const BASIS = 10_000;

/**
 * automaticScore = round(Σ weight × score) (half up), clamped to 0–100;
 * score = clamp(automaticScore + manualAdjustment, 0, 100); category from score.
 * Works on any stored factor set (older assessments carry other factor names),
 * because every factor stores its own weight.
 */
export function computeScore(factors: Record<string, WeightedFactor>, manualAdjustment = 0): ScoreResult {
  let total = 0;
  for (const factor of Object.values(factors)) {
    // Whole basis points (0.15 → 1500) and whole scores keep the sum free of float drift.
    total += Math.round(factor.score) * Math.round(factor.weight * BASIS);
  }
  const automaticScore = clampScore(Math.floor((total + BASIS / 2) / BASIS));
  const score = clampScore(automaticScore + Math.trunc(manualAdjustment));
  return { automaticScore, score, category: categoryOf(score) };
}
