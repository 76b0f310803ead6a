import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { audience, createFakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
});

const members = audience({ id: 4, name: 'Members' });

describe('Fields', () => {
  it('is reached from the audience Options menu and starts empty, offering to add a field', async () => {
    const api = createFakeApi({ audiences: [members] });
    const user = userEvent.setup();
    renderApp('/audiences/4', api);
    await user.click(await screen.findByRole('button', { name: 'Options' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Fields' }));
    expect(await screen.findByRole('heading', { name: 'Fields of Members' })).toBeTruthy();
    expect(await screen.findByText('No fields yet')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add field' })).toBeTruthy();
  });

  it('adds a field with its key suggested from the label, and a choice with its options', async () => {
    const api = createFakeApi({ audiences: [members] });
    const user = userEvent.setup();
    renderApp('/audiences/4/fields', api);
    await user.click(await screen.findByRole('button', { name: 'Add field' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add field' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Label' }), 'First Name');
    expect((within(dialog).getByRole('textbox', { name: 'Key (the merge tag)' }) as HTMLInputElement).value).toBe('firstName');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('POST', '/api/audiences/4/fields').at(-1)!.body).toEqual({
      key: 'firstName',
      label: 'First Name',
      type: 'TEXT',
      options: null,
      required: false,
      editableByPerson: false,
    });

    // A closed Fluent dialog leaves the page aria-hidden a moment longer in jsdom: hence `hidden: true` after one.
    await user.click(await screen.findByRole('button', { name: 'Add field', hidden: true }));
    const choice = await screen.findByRole('dialog', { name: 'Add field' });
    await user.type(within(choice).getByRole('textbox', { name: 'Label' }), 'Plan');
    await user.selectOptions(within(choice).getByRole('combobox', { name: 'Type' }), 'One of a list');
    await user.click(within(choice).getByRole('button', { name: 'Add' }));
    expect(await within(choice).findByText('A choice field needs at least one option.')).toBeTruthy();
    await user.type(within(choice).getByRole('textbox', { name: /Options, one a line/ }), 'Gold{Enter}Silver{Enter}gold');
    await user.click(within(choice).getByRole('button', { name: 'Add' }));
    expect(await within(choice).findByText("The option 'gold' is listed twice.")).toBeTruthy();
    await user.type(within(choice).getByRole('textbox', { name: /Options, one a line/ }), 'en');
    await user.click(within(choice).getByRole('checkbox', { name: 'Required' }));
    await user.click(within(choice).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('POST', '/api/audiences/4/fields').at(-1)!.body).toMatchObject({
      key: 'plan',
      type: 'CHOICE',
      options: ['Gold', 'Silver', 'golden'],
      required: true,
    });

    const table = await screen.findByRole('table', { name: 'Fields', hidden: true });
    const rows = within(table).getAllByRole('row', { hidden: true }).slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell', { hidden: true })
          .slice(0, 5)
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['First Name', '{{firstName}}', 'Text', 'No', 'No'],
      // Cut at 30 characters, the whole in a tooltip.
      ['Plan', '{{plan}}', 'One of a list: Gold, Silver, …', 'Yes', 'No'],
    ]);
  });

  it('refuses a key the audience has, or the address, before asking the server', async () => {
    const api = createFakeApi({
      audiences: [members],
      fields: { 4: [{ key: 'plan', label: 'Plan', type: 'TEXT', options: null, required: false, editableByPerson: false, position: 1 }] },
    });
    const user = userEvent.setup();
    renderApp('/audiences/4/fields', api);
    await user.click(await screen.findByRole('button', { name: 'Add field' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add field' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Label' }), 'Email');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Key (the merge tag)' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Key (the merge tag)' }), 'Email');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText("'Email' is the contact's address, not a field.")).toBeTruthy();
    await user.clear(within(dialog).getByRole('textbox', { name: 'Key (the merge tag)' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Key (the merge tag)' }), 'PLAN');
    expect(await within(dialog).findByText("The audience already has a field 'plan'.")).toBeTruthy();
    expect(api.calls('POST', '/api/audiences/4/fields')).toHaveLength(0);
  });

  it('renames a field, the key kept, and removes one a template uses only after naming the templates', async () => {
    const api = createFakeApi({
      audiences: [members],
      fields: {
        4: [
          { key: 'nick', label: 'Nick', type: 'TEXT', options: null, required: false, editableByPerson: false, position: 1 },
          { key: 'age', label: 'Age', type: 'NUMBER', options: null, required: false, editableByPerson: false, position: 2 },
        ],
      },
      templatesUsing: { nick: [{ id: 12, name: 'Welcome' }] },
    });
    const user = userEvent.setup();
    renderApp('/audiences/4/fields', api);
    await user.click(await screen.findByRole('button', { name: 'Change Nick' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Nick' });
    expect((within(dialog).getByRole('textbox', { name: 'Key (the merge tag)' }) as HTMLInputElement).readOnly).toBe(true);
    await user.clear(within(dialog).getByRole('textbox', { name: 'Label' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Label' }), 'Nickname');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('PATCH', '/api/audiences/4/fields/nick').at(-1)!.body).toMatchObject({ label: 'Nickname', type: 'TEXT' });

    await user.click(await screen.findByRole('button', { name: 'Remove Nickname', hidden: true }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Remove field' })).getByRole('button', { name: 'Remove' }));
    const asked = await screen.findByRole('alertdialog', { name: 'Templates use this field' });
    expect(within(asked).getByRole('link', { name: 'Welcome' }).getAttribute('href')).toBe('/templates/edit/12');
    expect(api.fields.get(4)!.map((f) => f.key)).toEqual(['nick', 'age']);
    await user.click(within(asked).getByRole('button', { name: 'Remove anyway' }));
    await waitFor(() => expect(api.fields.get(4)!.map((f) => f.key)).toEqual(['age']));
    expect(api.calls('DELETE', '/api/audiences/4/fields/nick').map((call) => call.query.get('confirm'))).toEqual([null, 'true']);

    // A field no template uses goes after the first question.
    await user.click(await screen.findByRole('button', { name: 'Remove Age', hidden: true }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Remove field' })).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.fields.get(4)).toEqual([]));
  });
});
