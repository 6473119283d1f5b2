import type { Migration } from '../migrate.ts';

/**
 * The whole schema of FinFlow's entities (docs/domain-model.md, docs/lifecycle.md, docs/money.md).
 * The database enforces what it can on its own: enums as CHECK constraints,
 * money as NUMERIC(15,2), unique OIBs, one invoice number per client, and the
 * activity log as append-only. Column names are snake_case; models map them.
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE EXTENSION IF NOT EXISTS pg_trgm;

    -- Keeps updated_at honest whichever code path writes the row.
    CREATE FUNCTION set_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.updated_at := now();
      RETURN NEW;
    END $$;

    CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email text NOT NULL CHECK (email = lower(email) AND email ~ '^[^@\\s]+@[^@\\s]+$' AND length(email) <= 255),
      first_name text NOT NULL DEFAULT '' CHECK (length(first_name) <= 255),
      last_name text NOT NULL DEFAULT '' CHECK (length(last_name) <= 255),
      role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'manager', 'admin', 'super_admin')),
      is_active boolean NOT NULL DEFAULT true,
      password_hash text,
      must_change_password boolean NOT NULL DEFAULT false,
      -- AES-256-GCM ciphertext; the plain secret never reaches the database.
      totp_secret_encrypted text,
      totp_pending_secret_encrypted text,
      -- NULL means "on" (spec: treated as on unless explicitly false).
      otp_enabled boolean,
      totp_confirmed_at timestamptz,
      -- The last accepted 30-second step, so a code is accepted only once.
      totp_last_step bigint,
      last_login_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_email_key ON users (email);
    CREATE INDEX users_created_at_idx ON users (created_at DESC, id DESC);

    CREATE TABLE sessions (
      id text PRIMARY KEY CHECK (length(id) >= 32),
      user_id uuid REFERENCES users (id) ON DELETE CASCADE,
      data jsonb NOT NULL DEFAULT '{}'::jsonb,
      ip_address text,
      user_agent text,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX sessions_user_id_idx ON sessions (user_id);
    CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

    -- One-time links (set password, reset password); only a hash of the token is stored.
    CREATE TABLE user_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('set_password', 'reset_password')),
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX user_tokens_user_id_idx ON user_tokens (user_id);

    CREATE TABLE clients (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      company_name text NOT NULL CHECK (length(btrim(company_name)) > 0 AND length(company_name) <= 255),
      oib char(11) NOT NULL CHECK (oib ~ '^[0-9]{11}$'),
      address text CHECK (length(address) <= 255),
      city text CHECK (length(city) <= 255),
      postal_code text CHECK (postal_code ~ '^[0-9]{5}$'),
      country text NOT NULL DEFAULT 'Croatia' CHECK (length(country) <= 255),
      contact_person text CHECK (length(contact_person) <= 255),
      email text CHECK (length(email) <= 255),
      phone text CHECK (length(phone) <= 50),
      iban text CHECK (iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'),
      registration_number text CHECK (length(registration_number) <= 50),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('active', 'pending', 'inactive')),
      risk_category text CHECK (risk_category IN ('low', 'medium', 'high')),
      risk_score integer CHECK (risk_score BETWEEN 0 AND 100),
      CHECK (risk_category IS NULL OR risk_score IS NULL
        OR risk_category = CASE WHEN risk_score >= 80 THEN 'low' WHEN risk_score >= 60 THEN 'medium' ELSE 'high' END),
      credit_limit numeric(15, 2) CHECK (credit_limit >= 0),
      used_credit numeric(15, 2) NOT NULL DEFAULT 0 CHECK (used_credit >= 0),
      onboarding_status text NOT NULL DEFAULT 'pending'
        CHECK (onboarding_status IN ('pending', 'in_progress', 'completed', 'rejected')),
      -- The factoring agreement (docs/money.md).
      advance_rate numeric(5, 2) NOT NULL DEFAULT 80.00 CHECK (advance_rate > 0 AND advance_rate <= 100),
      fee_rate numeric(6, 3) NOT NULL DEFAULT 1.500 CHECK (fee_rate >= 0 AND fee_rate <= 100),
      recourse boolean NOT NULL DEFAULT true,
      agreement_number text CHECK (length(agreement_number) <= 50),
      agreement_signed_on date,
      founded_on date,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX clients_oib_key ON clients (oib);
    CREATE INDEX clients_created_at_idx ON clients (created_at DESC, id DESC);
    CREATE INDEX clients_status_created_at_idx ON clients (status, created_at DESC, id DESC);
    CREATE INDEX clients_company_name_trgm_idx ON clients USING gin (company_name gin_trgm_ops);
    CREATE INDEX clients_email_trgm_idx ON clients USING gin (email gin_trgm_ops);
    CREATE INDEX clients_oib_pattern_idx ON clients (oib bpchar_pattern_ops);

    CREATE TABLE customers (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      company_name text NOT NULL CHECK (length(btrim(company_name)) > 0 AND length(company_name) <= 255),
      oib char(11) NOT NULL CHECK (oib ~ '^[0-9]{11}$'),
      address text CHECK (length(address) <= 255),
      city text CHECK (length(city) <= 255),
      postal_code text CHECK (postal_code ~ '^[0-9]{5}$'),
      country text NOT NULL DEFAULT 'Croatia' CHECK (length(country) <= 255),
      email text CHECK (length(email) <= 255),
      phone text CHECK (length(phone) <= 50),
      iban text CHECK (iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'),
      registration_number text CHECK (length(registration_number) <= 50),
      account_blocked boolean NOT NULL DEFAULT false,
      blockage_reason text CHECK (length(blockage_reason) <= 5000),
      last_fina_check timestamptz,
      risk_category text CHECK (risk_category IN ('low', 'medium', 'high')),
      risk_score integer CHECK (risk_score BETWEEN 0 AND 100),
      CHECK (risk_category IS NULL OR risk_score IS NULL
        OR risk_category = CASE WHEN risk_score >= 80 THEN 'low' WHEN risk_score >= 60 THEN 'medium' ELSE 'high' END),
      founded_on date,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX customers_oib_key ON customers (oib);
    CREATE INDEX customers_created_at_idx ON customers (created_at DESC, id DESC);
    CREATE INDEX customers_blocked_idx ON customers (account_blocked) WHERE account_blocked;
    CREATE INDEX customers_company_name_trgm_idx ON customers USING gin (company_name gin_trgm_ops);
    CREATE INDEX customers_email_trgm_idx ON customers USING gin (email gin_trgm_ops);
    CREATE INDEX customers_oib_pattern_idx ON customers (oib bpchar_pattern_ops);

    CREATE TABLE documents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (length(btrim(name)) > 0 AND length(name) <= 255),
      type text NOT NULL CHECK (type IN ('invoice', 'contract', 'kyc_document', 'financial_statement', 'id_document', 'bank_statement')),
      kyc_type text CHECK (kyc_type IN ('company_registration', 'tax_certificate', 'bank_statement', 'financial_statements', 'director_id')),
      mime_type text NOT NULL CHECK (length(mime_type) <= 255),
      size bigint NOT NULL CHECK (size >= 0),
      -- Content-addressed key in the object store and the SHA-256 of the bytes.
      storage_key text NOT NULL,
      checksum char(64) NOT NULL CHECK (checksum ~ '^[0-9a-f]{64}$'),
      entity_type text CHECK (entity_type IN ('client', 'customer', 'invoice')),
      entity_id uuid,
      uploaded_by uuid REFERENCES users (id) ON DELETE SET NULL,
      signature_required boolean NOT NULL DEFAULT false,
      signature_status text CHECK (signature_status IN ('pending', 'signed', 'rejected')),
      signed_at timestamptz,
      signed_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((entity_type IS NULL) = (entity_id IS NULL)),
      CHECK (signature_status IS NULL OR signature_required),
      CHECK (signed_at IS NULL OR signature_status = 'signed')
    );
    CREATE INDEX documents_created_at_idx ON documents (created_at DESC, id DESC);
    CREATE INDEX documents_type_created_at_idx ON documents (type, created_at DESC);
    CREATE INDEX documents_entity_idx ON documents (entity_type, entity_id, created_at DESC);
    CREATE INDEX documents_signature_idx ON documents (signature_status) WHERE signature_required;
    CREATE INDEX documents_name_trgm_idx ON documents USING gin (name gin_trgm_ops);

    CREATE TABLE invoices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id uuid NOT NULL REFERENCES clients (id) ON DELETE RESTRICT,
      customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE RESTRICT,
      invoice_number text NOT NULL CHECK (length(btrim(invoice_number)) > 0 AND length(invoice_number) <= 100),
      status text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'verified', 'approved', 'rejected', 'financed', 'paid')),
      verification_status text NOT NULL DEFAULT 'pending' CHECK (verification_status IN ('pending', 'verified', 'failed')),
      amount numeric(15, 2) NOT NULL CHECK (amount > 0),
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      issue_date date NOT NULL,
      due_date date NOT NULL,
      description text CHECK (length(description) <= 5000),
      factor_amount numeric(15, 2) CHECK (factor_amount >= 0),
      factor_fee numeric(15, 2) CHECK (factor_fee >= 0),
      -- Sum of confirmed collections, kept with the payment that changes it.
      paid_amount numeric(15, 2) NOT NULL DEFAULT 0 CHECK (paid_amount >= 0),
      source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'ubl')),
      ubl_document_id uuid REFERENCES documents (id) ON DELETE SET NULL,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      verified_by uuid REFERENCES users (id) ON DELETE SET NULL,
      verified_at timestamptz,
      approved_by uuid REFERENCES users (id) ON DELETE SET NULL,
      approved_at timestamptz,
      financed_by uuid REFERENCES users (id) ON DELETE SET NULL,
      financed_at timestamptz,
      rejected_by uuid REFERENCES users (id) ON DELETE SET NULL,
      rejected_at timestamptz,
      rejection_reason text CHECK (length(rejection_reason) <= 5000),
      paid_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (due_date >= issue_date),
      CHECK (paid_amount <= amount),
      CHECK (status NOT IN ('financed', 'paid') OR (factor_amount IS NOT NULL AND factor_fee IS NOT NULL AND financed_at IS NOT NULL)),
      CHECK ((status = 'paid') = (paid_at IS NOT NULL)),
      CHECK (status <> 'rejected' OR (rejected_at IS NOT NULL AND rejection_reason IS NOT NULL)),
      CHECK (verification_status <> 'verified' OR verified_at IS NOT NULL),
      CHECK (factor_amount IS NULL OR factor_amount + coalesce(factor_fee, 0) <= amount)
    );
    CREATE UNIQUE INDEX invoices_client_number_key ON invoices (client_id, invoice_number);
    CREATE INDEX invoices_created_at_idx ON invoices (created_at DESC, id DESC);
    CREATE INDEX invoices_status_created_at_idx ON invoices (status, created_at DESC, id DESC);
    CREATE INDEX invoices_client_id_idx ON invoices (client_id, created_at DESC);
    CREATE INDEX invoices_customer_id_idx ON invoices (customer_id, created_at DESC);
    CREATE INDEX invoices_open_due_date_idx ON invoices (due_date) WHERE status = 'financed';
    CREATE INDEX invoices_number_trgm_idx ON invoices USING gin (invoice_number gin_trgm_ops);
    CREATE INDEX invoices_description_trgm_idx ON invoices USING gin (description gin_trgm_ops);

    CREATE TABLE invoice_lines (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      invoice_id uuid NOT NULL REFERENCES invoices (id) ON DELETE CASCADE,
      line_number integer NOT NULL CHECK (line_number > 0),
      description text NOT NULL CHECK (length(description) <= 5000),
      quantity numeric(15, 4) NOT NULL,
      unit_code text NOT NULL DEFAULT 'H87' CHECK (length(unit_code) <= 10),
      unit_price numeric(15, 4) NOT NULL CHECK (unit_price >= 0),
      net_amount numeric(15, 2) NOT NULL,
      vat_category text NOT NULL DEFAULT 'S' CHECK (vat_category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M')),
      vat_rate numeric(5, 2) NOT NULL DEFAULT 25 CHECK (vat_rate >= 0 AND vat_rate <= 100),
      kpd_code text CHECK (length(kpd_code) <= 20),
      UNIQUE (invoice_id, line_number)
    );

    CREATE TABLE risk_assessments (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      entity_type text NOT NULL CHECK (entity_type IN ('client', 'customer')),
      entity_id uuid NOT NULL,
      category text NOT NULL CHECK (category IN ('low', 'medium', 'high')),
      score integer NOT NULL CHECK (score BETWEEN 0 AND 100),
      automatic_score integer NOT NULL CHECK (automatic_score BETWEEN 0 AND 100),
      manual_adjustment integer NOT NULL DEFAULT 0 CHECK (manual_adjustment BETWEEN -100 AND 100),
      -- NULL assessed_by means the system made it ('system' in the API).
      assessed_by uuid REFERENCES users (id) ON DELETE SET NULL,
      adjusted_by uuid REFERENCES users (id) ON DELETE SET NULL,
      adjusted_at timestamptz,
      factors jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(factors) = 'object'),
      notes text CHECK (length(notes) <= 5000),
      hanfa_data jsonb,
      fina_data jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (score = greatest(0, least(100, automatic_score + manual_adjustment))),
      CHECK (category = CASE WHEN score >= 80 THEN 'low' WHEN score >= 60 THEN 'medium' ELSE 'high' END)
    );
    CREATE INDEX risk_assessments_created_at_idx ON risk_assessments (created_at DESC, id DESC);
    CREATE INDEX risk_assessments_entity_idx ON risk_assessments (entity_type, entity_id, created_at DESC);
    CREATE INDEX risk_assessments_category_idx ON risk_assessments (category);

    CREATE TABLE credit_limit_requests (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id uuid NOT NULL REFERENCES clients (id) ON DELETE RESTRICT,
      previous_limit numeric(15, 2) CHECK (previous_limit >= 0),
      requested_limit numeric(15, 2) NOT NULL CHECK (requested_limit > 0),
      approved_limit numeric(15, 2) CHECK (approved_limit > 0),
      reason text NOT NULL CHECK (length(btrim(reason)) > 0 AND length(reason) <= 5000),
      -- NULL when the applicant asked for it in the registration wizard.
      requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
      requested_at timestamptz NOT NULL DEFAULT now(),
      valid_until date,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'expired')),
      decided_by uuid REFERENCES users (id) ON DELETE SET NULL,
      decided_at timestamptz,
      rejection_reason text CHECK (length(rejection_reason) <= 5000),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (status <> 'approved' OR approved_limit IS NOT NULL),
      CHECK (status = 'pending' OR decided_at IS NOT NULL),
      -- Four eyes: whoever asked cannot decide.
      CHECK (decided_by IS NULL OR requested_by IS NULL OR decided_by <> requested_by)
    );
    CREATE INDEX credit_limit_requests_requested_at_idx ON credit_limit_requests (requested_at DESC, id DESC);
    CREATE INDEX credit_limit_requests_status_idx ON credit_limit_requests (status, requested_at DESC, id DESC);
    CREATE INDEX credit_limit_requests_client_idx ON credit_limit_requests (client_id, requested_at DESC);
    CREATE INDEX credit_limit_requests_expiry_idx ON credit_limit_requests (valid_until) WHERE status = 'approved';

    CREATE TABLE payments (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      invoice_id uuid NOT NULL REFERENCES invoices (id) ON DELETE RESTRICT,
      amount numeric(15, 2) NOT NULL CHECK (amount > 0),
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      payment_method text NOT NULL DEFAULT 'bank_transfer' CHECK (payment_method IN ('bank_transfer', 'cash', 'check', 'card')),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'failed', 'refunded')),
      reference text CHECK (length(reference) <= 255),
      notes text CHECK (length(notes) <= 5000),
      source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'bank_statement')),
      -- The bank's entry reference of an imported statement line; re-imports are refused by it.
      bank_entry_ref text UNIQUE,
      recorded_by uuid REFERENCES users (id) ON DELETE SET NULL,
      processed_by uuid REFERENCES users (id) ON DELETE SET NULL,
      processed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'pending') = (processed_at IS NULL))
    );
    CREATE INDEX payments_created_at_idx ON payments (created_at DESC, id DESC);
    CREATE INDEX payments_status_created_at_idx ON payments (status, created_at DESC, id DESC);
    CREATE INDEX payments_invoice_id_idx ON payments (invoice_id);
    CREATE INDEX payments_reference_trgm_idx ON payments USING gin (reference gin_trgm_ops);

    -- Money the factor pays out to a client: the advance at financing and the reserve when collected.
    CREATE TABLE payouts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id uuid NOT NULL REFERENCES clients (id) ON DELETE RESTRICT,
      invoice_id uuid NOT NULL REFERENCES invoices (id) ON DELETE RESTRICT,
      kind text NOT NULL CHECK (kind IN ('advance', 'reserve_release')),
      amount numeric(15, 2) NOT NULL CHECK (amount >= 0),
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      iban text NOT NULL CHECK (iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'exported', 'paid', 'cancelled')),
      export_batch_id text,
      exported_at timestamptz,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (status <> 'exported' OR exported_at IS NOT NULL)
    );
    -- One live advance and one live reserve release per invoice; a cancelled one may be issued again.
    CREATE UNIQUE INDEX payouts_invoice_kind_key ON payouts (invoice_id, kind) WHERE status <> 'cancelled';
    CREATE INDEX payouts_status_created_at_idx ON payouts (status, created_at DESC, id DESC);
    CREATE INDEX payouts_created_at_idx ON payouts (created_at DESC, id DESC);
    CREATE INDEX payouts_client_idx ON payouts (client_id);

    CREATE TABLE workflow_definitions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (length(btrim(name)) > 0 AND length(name) <= 255),
      description text CHECK (length(description) <= 5000),
      type text NOT NULL CHECK (type IN ('client_onboarding', 'invoice_verification', 'risk_assessment', 'payment_processing')),
      -- [{ name, type: 'automated' | 'manual', handler?, taskType? }]
      steps jsonb NOT NULL CHECK (jsonb_typeof(steps) = 'array' AND jsonb_array_length(steps) > 0),
      is_active boolean NOT NULL DEFAULT true,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX workflow_definitions_type_idx ON workflow_definitions (type, is_active);

    CREATE TABLE workflow_instances (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workflow_id uuid NOT NULL REFERENCES workflow_definitions (id) ON DELETE RESTRICT,
      status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'completed', 'failed', 'paused')),
      entity_type text NOT NULL CHECK (entity_type IN ('client', 'customer', 'invoice', 'payment', 'credit_limit_request')),
      entity_id uuid NOT NULL,
      current_step integer NOT NULL DEFAULT 0 CHECK (current_step >= 0),
      -- The definition's steps as they were when the instance started.
      steps jsonb NOT NULL CHECK (jsonb_typeof(steps) = 'array'),
      context jsonb NOT NULL DEFAULT '{}'::jsonb,
      last_error text,
      started_by uuid REFERENCES users (id) ON DELETE SET NULL,
      started_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'completed') = (completed_at IS NOT NULL)),
      CHECK (current_step <= jsonb_array_length(steps))
    );
    CREATE INDEX workflow_instances_started_at_idx ON workflow_instances (started_at DESC, id DESC);
    CREATE INDEX workflow_instances_status_idx ON workflow_instances (status, started_at DESC);
    CREATE INDEX workflow_instances_entity_idx ON workflow_instances (entity_type, entity_id);
    CREATE INDEX workflow_instances_workflow_idx ON workflow_instances (workflow_id);

    -- The step history of an instance: one row per attempt at a step.
    CREATE TABLE workflow_step_runs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      instance_id uuid NOT NULL REFERENCES workflow_instances (id) ON DELETE CASCADE,
      step_index integer NOT NULL CHECK (step_index >= 0),
      step_name text NOT NULL,
      step_type text NOT NULL CHECK (step_type IN ('automated', 'manual')),
      status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'waiting', 'completed', 'failed', 'skipped')),
      attempt integer NOT NULL DEFAULT 1 CHECK (attempt >= 1),
      outcome jsonb,
      error text,
      started_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    );
    CREATE INDEX workflow_step_runs_instance_idx ON workflow_step_runs (instance_id, step_index, started_at);

    CREATE TABLE tasks (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      title text NOT NULL CHECK (length(btrim(title)) > 0 AND length(title) <= 255),
      description text CHECK (length(description) <= 5000),
      type text NOT NULL CHECK (type IN ('kyc_verification', 'risk_assessment', 'manual_review', 'document_review', 'customer_contact', 'limit_approval')),
      -- 'normal' appears only in the dashboard's pending-task labels; kept so both agree.
      priority text NOT NULL DEFAULT 'medium' CHECK (priority IN ('urgent', 'high', 'medium', 'normal', 'low')),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'in_progress', 'completed', 'cancelled')),
      assigned_to uuid REFERENCES users (id) ON DELETE SET NULL,
      due_date timestamptz,
      entity_type text CHECK (entity_type IN ('client', 'customer', 'invoice', 'payment', 'credit_limit_request', 'document')),
      entity_id uuid,
      notes text CHECK (length(notes) <= 5000),
      workflow_instance_id uuid REFERENCES workflow_instances (id) ON DELETE SET NULL,
      workflow_step integer CHECK (workflow_step >= 0),
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'completed') = (completed_at IS NOT NULL)),
      CHECK ((entity_type IS NULL) = (entity_id IS NULL))
    );
    CREATE INDEX tasks_created_at_idx ON tasks (created_at DESC, id DESC);
    CREATE INDEX tasks_status_created_at_idx ON tasks (status, created_at DESC, id DESC);
    CREATE INDEX tasks_assigned_open_idx ON tasks (assigned_to, due_date) WHERE status IN ('pending', 'in_progress');
    CREATE INDEX tasks_workflow_idx ON tasks (workflow_instance_id) WHERE workflow_instance_id IS NOT NULL;
    CREATE INDEX tasks_title_trgm_idx ON tasks USING gin (title gin_trgm_ops);

    CREATE TABLE email_templates (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (length(btrim(name)) > 0 AND length(name) <= 255),
      trigger text NOT NULL DEFAULT 'manual'
        CHECK (trigger IN ('client_onboarding', 'invoice_verified', 'payment_due', 'payment_overdue', 'manual')),
      subject text NOT NULL CHECK (length(btrim(subject)) > 0 AND length(subject) <= 255),
      body text NOT NULL CHECK (length(btrim(body)) > 0 AND length(body) <= 100000),
      is_active boolean NOT NULL DEFAULT true,
      usage_count integer NOT NULL DEFAULT 0 CHECK (usage_count >= 0),
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX email_templates_updated_at_idx ON email_templates (updated_at DESC, id DESC);
    -- An event sends the one active template of its trigger; manual templates may be many.
    CREATE UNIQUE INDEX email_templates_active_trigger_key ON email_templates (trigger) WHERE is_active AND trigger <> 'manual';

    CREATE TABLE email_campaigns (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (length(btrim(name)) > 0 AND length(name) <= 255),
      template_id uuid NOT NULL REFERENCES email_templates (id) ON DELETE RESTRICT,
      recipients text NOT NULL DEFAULT 'active_clients' CHECK (recipients IN ('all_clients', 'active_clients', 'specific_clients')),
      specific_client_ids uuid[] NOT NULL DEFAULT '{}',
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'active', 'sending', 'completed', 'failed')),
      scheduled_at timestamptz,
      started_at timestamptz,
      completed_at timestamptz,
      total_recipients integer CHECK (total_recipients >= 0),
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX email_campaigns_created_at_idx ON email_campaigns (created_at DESC, id DESC);
    CREATE INDEX email_campaigns_status_idx ON email_campaigns (status);
    CREATE INDEX email_campaigns_template_idx ON email_campaigns (template_id);

    CREATE TABLE email_logs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      template_id uuid REFERENCES email_templates (id) ON DELETE SET NULL,
      campaign_id uuid REFERENCES email_campaigns (id) ON DELETE SET NULL,
      client_id uuid REFERENCES clients (id) ON DELETE SET NULL,
      recipient text NOT NULL CHECK (length(recipient) <= 255 AND recipient = lower(recipient)),
      subject text NOT NULL CHECK (length(subject) <= 255),
      -- 'queued' is ours: a row written before the send, so a crash cannot send twice.
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'delivered', 'opened', 'clicked', 'failed')),
      tracking_token text NOT NULL UNIQUE DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''),
      message_id text,
      links jsonb NOT NULL DEFAULT '[]'::jsonb,
      error_message text,
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      sent_at timestamptz,
      opened_at timestamptz,
      clicked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- A campaign reaches each recipient once, even when the worker resumes after a crash.
    CREATE UNIQUE INDEX email_logs_campaign_recipient_key ON email_logs (campaign_id, recipient) WHERE campaign_id IS NOT NULL;
    CREATE INDEX email_logs_created_at_idx ON email_logs (created_at DESC, id DESC);
    CREATE INDEX email_logs_campaign_idx ON email_logs (campaign_id, status);
    CREATE INDEX email_logs_template_idx ON email_logs (template_id);
    CREATE INDEX email_logs_client_idx ON email_logs (client_id);
    CREATE INDEX email_logs_opened_idx ON email_logs (opened_at) WHERE opened_at IS NOT NULL;
    CREATE INDEX email_logs_clicked_idx ON email_logs (clicked_at) WHERE clicked_at IS NOT NULL;

    CREATE TABLE integrations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (length(name) <= 255),
      description text CHECK (length(description) <= 5000),
      type text NOT NULL UNIQUE CHECK (type IN ('hanfa', 'fina', 'sendgrid', 'docusign', 'einvoicing')),
      status text NOT NULL DEFAULT 'inactive'
        CHECK (status IN ('active', 'in_development', 'error', 'inactive', 'testing')),
      mode text NOT NULL DEFAULT 'sandbox' CHECK (mode IN ('sandbox', 'live')),
      is_enabled boolean NOT NULL DEFAULT true,
      endpoint text CHECK (length(endpoint) <= 2000),
      -- Credentials as AES-256-GCM ciphertext of a JSON object.
      settings_encrypted text,
      last_check timestamptz,
      last_sync timestamptz,
      error_count integer NOT NULL DEFAULT 0 CHECK (error_count >= 0),
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE integration_logs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      integration_id uuid NOT NULL REFERENCES integrations (id) ON DELETE CASCADE,
      operation text NOT NULL CHECK (length(operation) <= 100),
      success boolean NOT NULL,
      duration_ms integer NOT NULL CHECK (duration_ms >= 0),
      message text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX integration_logs_integration_idx ON integration_logs (integration_id, created_at DESC);

    CREATE TABLE activity_logs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      -- snake_case verbs such as client_created; the set grows with the product.
      action text NOT NULL CHECK (action ~ '^[a-z]+(_[a-z0-9]+)*$' AND length(action) <= 100),
      entity_type text CHECK (entity_type ~ '^[a-z]+(_[a-z]+)*$'),
      entity_id uuid,
      -- Staff are deactivated, never deleted, once they appear in the audit trail.
      user_id uuid REFERENCES users (id) ON DELETE RESTRICT,
      ip_address text CHECK (length(ip_address) <= 64),
      details jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(details) = 'object'),
      -- clock_timestamp, not now(): rows written in one transaction keep the order they happened in.
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE INDEX activity_logs_created_at_idx ON activity_logs (created_at DESC, id DESC);
    CREATE INDEX activity_logs_entity_idx ON activity_logs (entity_type, entity_id, created_at DESC);
    CREATE INDEX activity_logs_user_idx ON activity_logs (user_id, created_at DESC);
    CREATE INDEX activity_logs_action_idx ON activity_logs (action, created_at DESC);

    -- Auditors read this table: rows are written once and never changed or removed.
    CREATE FUNCTION activity_logs_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'activity_logs is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER activity_logs_append_only BEFORE UPDATE OR DELETE ON activity_logs
      FOR EACH ROW EXECUTE FUNCTION activity_logs_append_only();
    CREATE TRIGGER activity_logs_no_truncate BEFORE TRUNCATE ON activity_logs
      FOR EACH STATEMENT EXECUTE FUNCTION activity_logs_append_only();

    -- Liveness of worker processes, written by their heartbeat job.
    CREATE TABLE worker_heartbeats (
      worker_id text PRIMARY KEY,
      hostname text NOT NULL,
      pid integer NOT NULL,
      started_at timestamptz NOT NULL,
      last_beat_at timestamptz NOT NULL DEFAULT now()
    );
  `);

  for (const table of [
    'users',
    'sessions',
    'clients',
    'customers',
    'documents',
    'invoices',
    'risk_assessments',
    'credit_limit_requests',
    'payments',
    'payouts',
    'workflow_definitions',
    'workflow_instances',
    'tasks',
    'email_templates',
    'email_campaigns',
    'email_logs',
    'integrations',
  ]) {
    await db.query(`CREATE TRIGGER ${table}_set_updated_at BEFORE UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION set_updated_at()`);
  }
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DROP TABLE IF EXISTS worker_heartbeats, activity_logs, integration_logs, integrations, email_logs,
      email_campaigns, email_templates, tasks, workflow_step_runs, workflow_instances, workflow_definitions,
      payouts, payments, credit_limit_requests, risk_assessments, invoice_lines, invoices, documents,
      customers, clients, user_tokens, sessions, users CASCADE;
    DROP FUNCTION IF EXISTS activity_logs_append_only();
    DROP FUNCTION IF EXISTS set_updated_at();
  `);
};
