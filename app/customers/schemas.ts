/**
 * The customer forms and payloads. Customers share the client's party fields
 * (without contactPerson), so the rules live once in app/clients/schemas.ts.
 */
export { CUSTOMER_FIELDS, customerCreateSchema, customerEditFormSchema, customerUpdateSchema, type CustomerCreateInput, type CustomerUpdateInput } from '../clients/schemas.ts';
