import { screen, waitFor, within } from '@testing-library/react';
import type { AudienceField } from '@mailroom/api-client';
import type { SegmentCondition, SegmentRule } from '@mailroom/api-client/segments';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { audience, contact, createFakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const field = (key: string, label: string, type: AudienceField['type'], position: number): AudienceField => ({
  key,
  label,
  type,
  options: null,
  required: false,
  editableByPerson: false,
  position,
});

const FIELDS = [field('firstName', 'First name', 'TEXT', 1), field('age', 'Age', 'NUMBER', 2)];

function setup(overrides: Parameters<typeof createFakeApi>[0] = {}, url = '/audiences/4/segments/new') {
  const api = createFakeApi({
    audiences: [audience({ id: 4, name: 'Tree news', headers: ['firstName', 'age'] })],
    fields: { 4: FIELDS },
    contacts: {
      4: [contact(1, 'ann@example.org', { firstName: 'Ann', age: 41 } as never), contact(2, 'bo@example.org', { firstName: 'Bo' })],
    },
    ...overrides,
  });
  return { api, ...renderApp(url, api) };
}

const countBodies = (api: ReturnType<typeof createFakeApi>) =>
  api.calls('POST', '/api/audiences/4/segment-count').map((c) => (c.body as { rule: SegmentRule }).rule);
const firstCondition = (rule: SegmentRule) => rule.rules[0] as SegmentCondition | undefined;
const countText = () => screen.getByTestId('segment-count').textContent;

describe('The segment editor: the live count', () => {
  it('counts the empty rule, waits for an unfinished condition, and counts once the member stops typing', async () => {
    const { api, user } = setup();
    await waitFor(() => expect(countText()).toBe('100 contacts match'));
    expect(screen.getByTestId('segment-count').getAttribute('aria-live')).toBe('polite');

    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    // First name, "is", no value yet: not sent, the member is told why.
    expect(countText()).toBe('Finish 1 condition to count the contacts');
    await user.type(screen.getByRole('textbox', { name: 'Value of condition 1' }), 'Ann');
    await waitFor(() => expect(countText()).toBe('90 contacts match'));

    const values = countBodies(api).map((rule) => firstCondition(rule)?.value);
    // Debounced: the keystrokes in between were never counted; the first count is the empty rule's.
    expect(values).toEqual([undefined, 'Ann']);
    expect(countBodies(api)[1]).toEqual({ combinator: 'and', rules: [{ field: 'fields.firstName', operator: 'equals', value: 'Ann' }] });
  });

  it("never shows an older rule's count that answers after a newer one's", async () => {
    const { api, user } = setup();
    let answerSlow: (() => void) | undefined;
    api.on('POST', /segment-count$/, async (req) => {
      const rule = (req.body as { rule: SegmentRule }).rule;
      if (firstCondition(rule)?.value !== 'Ann') return undefined;
      await new Promise<void>((resolve) => (answerSlow = resolve));
      return api.json(200, { count: 1 });
    });
    await waitFor(() => expect(countText()).toBe('100 contacts match'));
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    const value = screen.getByRole('textbox', { name: 'Value of condition 1' });
    await user.type(value, 'Ann');
    await waitFor(() => expect(answerSlow).toBeDefined());
    await user.type(value, 'e');
    await waitFor(() => expect(countText()).toBe('90 contacts match'));
    answerSlow!();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(countText()).toBe('90 contacts match');
    expect(countBodies(api).map((rule) => firstCondition(rule)?.value)).toEqual([undefined, 'Ann', 'Anne']);
  });

  it("shows the API's refusal of a rule next to the builder, with the condition it names", async () => {
    const { api, user } = setup();
    api.on('POST', /segment-count$/, (req) =>
      firstCondition((req.body as { rule: SegmentRule }).rule)
        ? api.json(400, { message: 'The rule is not valid', errors: [{ path: '/rule/rules/0/value', message: 'must be a number' }] })
        : undefined,
    );
    await waitFor(() => expect(countText()).toBe('100 contacts match'));
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.type(screen.getByRole('textbox', { name: 'Value of condition 1' }), 'x');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The rule is not valid');
    expect(alert.textContent).toContain('/rule/rules/0/value: must be a number');
    expect(countText()).toBe('The contacts could not be counted');
  });

  it('previews ten matching contacts in a table', async () => {
    const { api, user } = setup();
    await waitFor(() => expect(countText()).toBe('100 contacts match'));
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const table = await screen.findByRole('table', { name: 'Matching contacts' });
    expect(within(table).getByText('ann@example.org')).toBeTruthy();
    expect(within(table).getByText('41')).toBeTruthy();
    expect(api.calls('POST', '/api/audiences/4/segment-count').some((c) => c.query.get('sample') === 'true')).toBe(true);
  });
});

describe('The segment editor: saving', () => {
  it('sends the typed rule, shows a taken name on the name field, and goes back to the list once saved', async () => {
    const { api, user, notify, location } = setup({
      segments: [
        {
          id: 3,
          audienceId: 4,
          name: 'Adults',
          rule: { combinator: 'and', rules: [] },
          createdAt: 'x',
          updatedAt: '2024-06-01T09:00:00.000Z',
        },
      ],
    });
    await waitFor(() => expect(countText()).toBe('100 contacts match'));
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'Adults');
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'What condition 1 compares' }), 'fields.age');
    await user.selectOptions(screen.getByRole('combobox', { name: 'How condition 1 compares' }), 'greaterThan');
    await user.type(screen.getByRole('spinbutton', { name: 'Value of condition 1' }), '40');
    await user.click(screen.getByRole('button', { name: 'Save segment' }));
    expect(await screen.findByText("A segment named 'Adults' exists.")).toBeTruthy();

    await user.clear(screen.getByRole('textbox', { name: /Name/ }));
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'Over forty');
    await user.click(screen.getByRole('button', { name: 'Save segment' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', 'Saved Over forty'));
    const posted = api.calls('POST', '/api/audiences/4/segments').at(-1)!.body as { name: string; rule: SegmentRule };
    expect(posted.name).toBe('Over forty');
    expect(posted.rule.rules).toEqual([expect.objectContaining({ field: 'fields.age', operator: 'greaterThan', value: 40 })]);
    await waitFor(() => expect(location().pathname).toBe('/audiences/4/segments'));
    expect(await screen.findByRole('link', { name: 'Over forty' })).toBeTruthy();
  });

  it('opens a saved segment with its rule in the builder and saves the change with PUT', async () => {
    const { api, user } = setup(
      {
        segments: [
          {
            id: 3,
            audienceId: 4,
            name: 'Ann',
            rule: { combinator: 'or', rules: [{ id: 'c1', field: 'fields.firstName', operator: 'oneOf', value: ['Ann', 'Anna'] }] },
            createdAt: 'x',
            updatedAt: 'y',
          },
        ],
      },
      '/audiences/4/segments/3',
    );
    const value = await screen.findByRole('textbox', { name: 'Value of condition 1 (separate values with commas)' });
    expect((value as HTMLInputElement).value).toBe('Ann, Anna');
    expect((screen.getByRole('combobox', { name: 'Match contacts by' }) as HTMLSelectElement).value).toBe('or');
    await user.type(value, ', Annie');
    await user.click(screen.getByRole('button', { name: 'Save segment' }));
    await waitFor(() => expect(api.calls('PUT', '/api/segments/3')).toHaveLength(1));
    // The builder's own ids are kept as given (the contract's `id`).
    expect((api.calls('PUT', '/api/segments/3')[0]!.body as { rule: SegmentRule }).rule).toEqual({
      id: expect.any(String),
      combinator: 'or',
      rules: [{ id: 'c1', field: 'fields.firstName', operator: 'oneOf', value: ['Ann', 'Anna', 'Annie'] }],
    });
  });
});
