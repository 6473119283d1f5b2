/**
 * Calendar days of credit limits (docs/lifecycle.md#credit-limits). A limit's
 * validUntil is a date and "today" is the day in Croatia
 * (app/utils/business-time.ts), where the staff and the clients are, not the
 * server's zone.
 */
export { addDays, businessDay as zagrebToday } from '../utils/business-time.ts';
