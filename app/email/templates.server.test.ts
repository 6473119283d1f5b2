import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, selectRows } from '../db.server.ts';
import { action as templateUpdateAction } from '../routes/api.email.templates.$id.ts';
import { action as templatesAction } from '../routes/api.email.templates.ts';
import { createTemplate, updateTemplate } from './templates.server.ts';
import { createTestUser } from '../../tests/factories.ts';

/**
 * The 'Aktivan' switch of an email template (spec: toggled at any time): one
 * active template per event trigger, kept by handing the trigger over instead
 * of refusing, logged on both templates, and safe when requests race.
 */
const manager = async () => {
  const user = await createTestUser({ role: 'manager' });
  return { actor: { id: user.id as string, role: 'manager' as const }, cookie: await signedInCookie(user.id) };
};
const content = { subject: 'Podsjetnik {{invoice_number}}', body: 'Iznos {{amount}}' };

/** Test setup: no template active for the trigger (reference data may hold one). */
async function clearTrigger(trigger: string) {
  await execute(`UPDATE email_templates SET is_active = false WHERE trigger = :trigger`, { trigger });
}

async function activeOf(trigger: string) {
  return selectRows<{ id: string; name: string }>(`SELECT id, name FROM email_templates WHERE trigger = :trigger AND is_active ORDER BY name`, { trigger });
}

describe('activating a template for an event trigger', () => {
  it('deactivates the one active before, in the answer and in the activity log of both', async () => {
    const { actor, cookie } = await manager();
    await clearTrigger('payment_due');
    const first = await createTemplate({ actor, input: { name: 'Dospijeće A', trigger: 'payment_due', ...content }, ip: '10.0.0.1' });
    expect(first).toMatchObject({ isActive: true, deactivatedTemplate: null });
    const second = await createTemplate({ actor, input: { name: 'Dospijeće B', trigger: 'payment_due', isActive: false, ...content } });
    expect(second.deactivatedTemplate).toBeNull();

    // The switch on the second template, through the API.
    const response = await templateUpdateAction({
      request: jsonRequest(`/api/email/templates/${second.id}`, { isActive: true }, cookie, 'PUT'),
      params: { id: second.id },
      context: { clientIp: '10.0.0.2' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: second.id, isActive: true, deactivatedTemplate: { id: first.id, name: 'Dospijeće A' } });
    expect(await activeOf('payment_due')).toEqual([{ id: second.id, name: 'Dospijeće B' }]);

    const [activated] = await activityRows('email_template_activated', second.id);
    expect(activated).toMatchObject({
      user_id: actor.id,
      details: { name: 'Dospijeće B', trigger: 'payment_due', changed: ['isActive'], deactivatedTemplate: { id: first.id, name: 'Dospijeće A' } },
    });
    const [replaced] = await activityRows('email_template_deactivated', first.id);
    expect(replaced).toMatchObject({
      user_id: actor.id,
      details: { name: 'Dospijeće A', trigger: 'payment_due', changed: ['isActive'], replacedBy: { id: second.id, name: 'Dospijeće B' } },
    });

    // Switching the active one off hands nothing over.
    const off = await updateTemplate({ actor, id: second.id, input: { isActive: false } });
    expect(off).toMatchObject({ isActive: false, deactivatedTemplate: null });
    expect(await activeOf('payment_due')).toEqual([]);
    // Switching on again when nothing is active: nothing to deactivate.
    expect(await updateTemplate({ actor, id: first.id, input: { isActive: true } })).toMatchObject({ isActive: true, deactivatedTemplate: null });
  });

  it('creating one active (POST) takes over the trigger; a template moved to a trigger while active does too', async () => {
    const { actor, cookie } = await manager();
    const old = await createTemplate({ actor, input: { name: 'Kašnjenje staro', trigger: 'payment_overdue', ...content } });
    const response = await templatesAction({
      request: jsonRequest('/api/email/templates', { name: 'Kašnjenje novo', trigger: 'payment_overdue', isActive: true, ...content }, cookie),
      params: {},
      context: {},
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as { id: string; deactivatedTemplate: unknown };
    expect(created.deactivatedTemplate).toEqual({ id: old.id, name: 'Kašnjenje staro' });
    expect(await activeOf('payment_overdue')).toEqual([{ id: created.id, name: 'Kašnjenje novo' }]);
    expect((await activityRows('email_template_created', created.id))[0].details).toMatchObject({ deactivatedTemplate: { id: old.id, name: 'Kašnjenje staro' } });
    expect((await activityRows('email_template_deactivated', old.id))[0].details).toMatchObject({ replacedBy: { id: created.id, name: 'Kašnjenje novo' } });

    // An active manual template moved to payment_overdue replaces the new one there.
    const manual = await createTemplate({ actor, input: { name: 'Ručni', ...content } });
    const moved = await updateTemplate({ actor, id: manual.id, input: { trigger: 'payment_overdue' } });
    expect(moved).toMatchObject({ trigger: 'payment_overdue', isActive: true, deactivatedTemplate: { id: created.id, name: 'Kašnjenje novo' } });
    expect(await activeOf('payment_overdue')).toEqual([{ id: manual.id, name: 'Ručni' }]);
    expect((await activityRows('email_template_updated', manual.id))[0].details).toMatchObject({ changed: ['trigger'], deactivatedTemplate: { id: created.id } });
    // Editing the content of the active template changes nothing else.
    expect(await updateTemplate({ actor, id: manual.id, input: { subject: 'Novi naslov' } })).toMatchObject({ isActive: true, deactivatedTemplate: null });
  });

  it('leaves manual templates alone: any number of them stay active', async () => {
    const { actor } = await manager();
    const a = await createTemplate({ actor, input: { name: 'Novosti 1', ...content } });
    const b = await createTemplate({ actor, input: { name: 'Novosti 2', ...content } });
    expect(b.deactivatedTemplate).toBeNull();
    expect((await activeOf('manual')).map((row) => row.id)).toEqual(expect.arrayContaining([a.id, b.id]));
  });

  it('refuses an unknown or malformed id with 404, and a user with 403, changing nothing', async () => {
    const { actor } = await manager();
    const kept = await createTemplate({ actor, input: { name: 'Verificirana', trigger: 'invoice_verified', ...content } });
    expect((await apiFailure(updateTemplate({ actor, id: '00000000-0000-4000-8000-000000000000', input: { isActive: true } }))).status).toBe(404);
    expect((await apiFailure(updateTemplate({ actor, id: 'not-a-uuid', input: { isActive: true } }))).status).toBe(404);
    const user = await createTestUser({ role: 'user' });
    expect((await apiFailure(createTemplate({ actor: { id: user.id, role: 'user' }, input: { name: 'X', trigger: 'invoice_verified', ...content } }))).status).toBe(403);
    expect(await activeOf('invoice_verified')).toEqual([{ id: kept.id, name: 'Verificirana' }]);
  });
});

describe('concurrent activations of one trigger', () => {
  it('all succeed, one after the other; exactly one template stays active and every hand-over is logged', async () => {
    const { actor } = await manager();
    await clearTrigger('client_onboarding');
    const templates = [];
    for (let i = 0; i < 6; i++) {
      templates.push(await createTemplate({ actor, input: { name: `Dobrodošlica ${i}`, trigger: 'client_onboarding', isActive: false, ...content } }));
    }
    const results = await Promise.allSettled(templates.map((template) => updateTemplate({ actor, id: template.id, input: { isActive: true } })));
    expect(results.map((result) => result.status)).toEqual(Array(6).fill('fulfilled'));
    const saved = results.map((result) => (result as PromiseFulfilledResult<Awaited<ReturnType<typeof updateTemplate>>>).value);
    const active = await activeOf('client_onboarding');
    expect(active).toHaveLength(1);
    // Serialised: the first one in found nothing active, every later one deactivated exactly the one before it.
    expect(saved.filter((template) => template.deactivatedTemplate === null)).toHaveLength(1);
    const replacedIds = saved.map((template) => template.deactivatedTemplate?.id).filter(Boolean);
    expect(new Set(replacedIds).size).toBe(5);
    expect(replacedIds).not.toContain(active[0].id);
    const handOvers = await selectRows<{ entity_id: string }>(`SELECT entity_id FROM activity_logs WHERE action = 'email_template_deactivated' AND entity_id IN (:ids)`, {
      ids: templates.map((template) => template.id),
    });
    expect(handOvers.map((row) => row.entity_id).sort()).toEqual([...replacedIds].sort());
  });

  it('two templates created active at once for a trigger that has none: both saved, the later one active', async () => {
    const { actor } = await manager();
    await clearTrigger('invoice_verified');
    const [a, b] = await Promise.all(['Prva', 'Druga'].map((name) => createTemplate({ actor, input: { name, trigger: 'invoice_verified', ...content } })));
    const active = await activeOf('invoice_verified');
    expect(active).toHaveLength(1);
    expect([a.deactivatedTemplate, b.deactivatedTemplate].filter(Boolean)).toHaveLength(1);
    const loser = a.deactivatedTemplate ? b : a;
    expect(active[0].id).not.toBe(loser.id);
  });
});
