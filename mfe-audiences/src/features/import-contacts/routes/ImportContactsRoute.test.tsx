import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Audience } from '@mailroom/api-client';
import type { FeatureSettings } from '@mailroom/mf-contract';
import type { ImportMappingView } from '../mapping';
import { audience, createFakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const setup = (overrides: Partial<Audience> = {}, features?: Partial<FeatureSettings>, importMapping?: ImportMappingView) => {
  const api = createFakeApi({
    audiences: [audience({ id: 4, name: 'Members', ...overrides })],
    importMappings: importMapping ? { 4: importMapping } : {},
  });
  return { api, ...renderApp('/audiences/4/import', api, { features }) };
};
/** The mapping step, once the file's start has been read. */
const mappingStep = () => screen.findByRole('list', { name: 'Columns of the file' });
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const currentStep = () => document.querySelector('[aria-current="step"]')?.textContent;
/** The lawful basis the Import step asks for (issue 25) before it uploads. */
const chooseBasis = (user: { click: (element: Element) => Promise<void> }, name = 'Consent collected elsewhere') =>
  user.click(screen.getByRole('radio', { name }));
const uploads = (api: ReturnType<typeof createFakeApi>) => api.calls('POST', '/api/audiences/4/import/file');
/** The file put in the multipart body, read where the form is built (the fake API does not parse multipart bodies). */
const uploadedFile = (append: { mock: { calls: unknown[][] } }) => {
  const call = append.mock.calls.find(([name]) => name === 'file');
  return call?.[1] as File | undefined;
};

describe('Import wizard', () => {
  it('starts at choosing a method; Next is disabled until one is chosen; Cancel goes back', async () => {
    const { user, location } = setup();
    await screen.findByRole('heading', { name: 'Import contacts into Members' });
    expect(currentStep()).toBe('1Choose import method');
    expect(button('Next').disabled).toBe(true);
    await user.click(screen.getByRole('radio', { name: /Upload file/ }));
    expect(button('Next').disabled).toBe(false);
    await user.click(button('Cancel'));
    await waitFor(() => expect(location().pathname).toBe('/audiences/4'));
  });

  it('pastes contacts, sends them as contactsInText.csv with type=text, then opens the audience', async () => {
    const append = vi.spyOn(FormData.prototype, 'append');
    const { api, user, notify, location } = setup();
    await user.click(await screen.findByRole('radio', { name: /Copy and Paste/ }));
    await user.click(button('Next'));
    expect(currentStep()).toBe('2Import');
    const area = screen.getByRole('textbox', { name: /Contacts/ });
    expect(area.getAttribute('placeholder')).toContain('Email\tUsername\tFull Name');
    expect(area.hasAttribute('required')).toBe(true);
    expect(button('Import').disabled).toBe(true);

    await user.click(area);
    await user.paste('Email\tUsername\nann@example.org\tann');
    await mappingStep();
    await chooseBasis(user);
    await user.click(button('Import'));
    await waitFor(() => expect(location().pathname).toBe('/audiences/4'));
    expect(notify).toHaveBeenCalledWith('info', 'Contacts are being imported in the background.');
    expect(await screen.findByText(/Contacts are being imported in the background/)).toBeTruthy();
    expect(await screen.findByText('Contacts will appear here when the import finishes')).toBeTruthy();

    const [upload] = uploads(api);
    expect(upload!.query.get('type')).toBe('text');
    expect(upload!.request.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
    const file = uploadedFile(append)!;
    expect(file.name).toBe('contactsInText.csv');
    expect(await file.text()).toBe('Email\tUsername\nann@example.org\tann');
  });

  it('asks for the lawful basis in the Import step, offers the six in words, and sends the one chosen', async () => {
    const append = vi.spyOn(FormData.prototype, 'append');
    const { api, user } = setup();
    await user.click(await screen.findByRole('radio', { name: /Copy and Paste/ }));
    await user.click(button('Next'));
    const basis = screen.getByRole('radiogroup', { name: /Lawful basis/ });
    expect(
      within(basis)
        .getAllByRole('radio')
        .map((radio) => (radio as HTMLInputElement).labels?.[0]?.textContent),
    ).toEqual(['Consent collected elsewhere', 'Legitimate interest', 'Contract', 'Legal obligation', 'Vital interest', 'Public task']);
    expect(
      within(basis)
        .getAllByRole('radio')
        .some((radio) => (radio as HTMLInputElement).checked),
    ).toBe(false);
    await user.click(screen.getByRole('textbox', { name: /Contacts/ }));
    await user.paste('email\nann@example.org');
    await mappingStep();
    // No choice yet: Import says what is missing and sends nothing.
    await user.click(button('Import'));
    expect(await screen.findByText('Choose why your organisation may email these contacts.')).toBeTruthy();
    expect(uploads(api)).toHaveLength(0);
    await chooseBasis(user, 'Legitimate interest');
    expect(screen.queryByText('Choose why your organisation may email these contacts.')).toBeNull();
    await user.click(button('Import'));
    await waitFor(() => expect(uploads(api)).toHaveLength(1));
    expect(append.mock.calls.find(([name]) => name === 'lawfulBasis')?.[1]).toBe('LEGITIMATE_INTEREST');
  });

  it('goes Back to the method step keeping the choice', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('radio', { name: /Copy and Paste/ }));
    await user.click(button('Next'));
    await user.click(button('Back'));
    expect(currentStep()).toBe('1Choose import method');
    expect((screen.getByRole('radio', { name: /Copy and Paste/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('uploads a CSV file with type=csv and shows progress meanwhile', async () => {
    const append = vi.spyOn(FormData.prototype, 'append');
    const { api, user, location } = setup();
    let answer!: (response: Response) => void;
    api.on('POST', /\/import\/file$/, () => new Promise<Response>((resolve) => (answer = resolve)));
    await user.click(await screen.findByRole('radio', { name: /Upload file/ }));
    await user.click(button('Next'));
    const csv = new File(['email,name\nann@example.org,Ann\n'], 'members.csv', { type: 'text/csv' });
    await user.upload(screen.getByLabelText('CSV or TXT file'), csv);
    expect(await screen.findByText('members.csv')).toBeTruthy();
    await mappingStep();
    await chooseBasis(user);
    await user.click(button('Import'));
    expect(await screen.findByRole('progressbar', { name: 'Uploading contacts' })).toBeTruthy();
    expect(button('Import').disabled).toBe(true);
    await waitFor(() => expect(uploads(api)).toHaveLength(1));
    expect(uploads(api)[0]!.query.get('type')).toBe('csv');
    expect(uploadedFile(append)!.name).toBe('members.csv');
    // The mapping and the lawful basis go first: the API checks the file's start for the address column the mapping names.
    expect(append.mock.calls.map(([name]) => name)).toEqual(['mapping', 'lawfulBasis', 'file']);
    answer(api.json(202, { message: 'queued' }));
    await waitFor(() => expect(location().pathname).toBe('/audiences/4'));
    expect(await screen.findByRole('heading', { name: 'Members' })).toBeTruthy();
    expect(await screen.findByText('No contacts yet')).toBeTruthy();
  });

  it('takes a tab-delimited .txt file and sends it as pasted text is sent (type=text, contactsInText.csv)', async () => {
    const append = vi.spyOn(FormData.prototype, 'append');
    const { api, user, location } = setup();
    await user.click(await screen.findByRole('radio', { name: /Upload file/ }));
    await user.click(button('Next'));
    const contents = 'Email\tFull Name\nann@example.org\tAnn Lee\n';
    // user-event honours the input's accept list, as the browser's file chooser does.
    await user.upload(screen.getByLabelText('CSV or TXT file'), new File([contents], 'members.txt', { type: 'text/plain' }));
    expect(await screen.findByText('members.txt')).toBeTruthy();
    await mappingStep();
    await chooseBasis(user);
    await user.click(button('Import'));
    await waitFor(() => expect(location().pathname).toBe('/audiences/4'));

    const [upload] = uploads(api);
    expect(upload!.query.get('type')).toBe('text');
    const file = uploadedFile(append)!;
    expect(file.name).toBe('contactsInText.csv');
    expect(await file.text()).toBe(contents);
  });

  it('refuses a file over the import limit at once, with the message, and uploads nothing', async () => {
    const { api, user } = setup({}, { importMaxBytes: 64 });
    await user.click(await screen.findByRole('radio', { name: /Upload file/ }));
    await user.click(button('Next'));

    await user.upload(screen.getByLabelText('CSV or TXT file'), new File(['e'.repeat(65)], 'big.csv', { type: 'text/csv' }));
    expect(await screen.findByText('File is larger than 64 bytes')).toBeTruthy();
    expect(screen.queryByText('big.csv')).toBeNull();
    expect(button('Import').disabled).toBe(true);
    expect(uploads(api)).toHaveLength(0);

    // At the limit it is taken.
    await user.upload(screen.getByLabelText('CSV or TXT file'), new File([`email\n${'e'.repeat(58)}`], 'fits.csv', { type: 'text/csv' }));
    expect(await screen.findByText('fits.csv')).toBeTruthy();
    expect(screen.queryByText('File is larger than 64 bytes')).toBeNull();
    await waitFor(() => expect(button('Import').disabled).toBe(false));
  });

  it('shows the drop errors for a wrong type and for too many files', async () => {
    const { api } = setup();
    const user = userEvent.setup({ applyAccept: false });
    await user.click(await screen.findByRole('radio', { name: /Upload file/ }));
    await user.click(button('Next'));

    await user.upload(screen.getByLabelText('CSV or TXT file'), new File(['x'], 'photo.png', { type: 'image/png' }));
    expect(await screen.findByText(/^File type must be/)).toBeTruthy();
    expect(button('Import').disabled).toBe(true);

    const zone = screen.getByRole('button', { name: /^Drop a CSV or TXT file here, or press to choose one/ });
    const files = [new File(['a'], 'a.csv', { type: 'text/csv' }), new File(['b'], 'b.csv', { type: 'text/csv' })];
    fireEvent.drop(zone, {
      dataTransfer: { files, items: files.map((file) => ({ kind: 'file', type: file.type, getAsFile: () => file })), types: ['Files'] },
    });
    expect(await screen.findByText('Too many files')).toBeTruthy();

    await user.upload(screen.getByLabelText('CSV or TXT file'), new File([], 'empty.csv', { type: 'text/csv' }));
    expect(await screen.findByText('File is smaller than 1 byte')).toBeTruthy();
    expect(uploads(api)).toHaveLength(0);
  });

  it("toasts the server's message and stays in the wizard", async () => {
    const { api, user, notify, location } = setup();
    api.on('POST', /\/import\/file$/, () => api.json(400, { message: 'The CSV must have an email field' }));
    await user.click(await screen.findByRole('radio', { name: /Copy and Paste/ }));
    await user.click(button('Next'));
    await user.click(screen.getByRole('textbox', { name: /Contacts/ }));
    await user.paste('Email\nann@example.org');
    await mappingStep();
    await chooseBasis(user);
    await user.click(button('Import'));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'The CSV must have an email field'));
    expect(location().pathname).toBe('/audiences/4/import');
  });

  it("falls back to 'Something went wrong' when the server sends no message", async () => {
    const { api, user, notify } = setup();
    api.on('POST', /\/import\/file$/, () => new Response('', { status: 502 }));
    await user.click(await screen.findByRole('radio', { name: /Copy and Paste/ }));
    await user.click(button('Next'));
    await user.click(screen.getByRole('textbox', { name: /Contacts/ }));
    await user.paste('Email\nann@example.org');
    await mappingStep();
    await chooseBasis(user);
    await user.click(button('Import'));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'Something went wrong'));
  });
});

/** The mapping the upload sent, read where the form is built. */
const sentMapping = (append: { mock: { calls: unknown[][] } }) => {
  const call = append.mock.calls.find(([name]) => name === 'mapping');
  return call ? JSON.parse(call[1] as string) : undefined;
};

async function chooseFile(user: ReturnType<typeof setup>['user'], contents: string) {
  await user.click(await screen.findByRole('radio', { name: /Upload file/ }));
  await user.click(button('Next'));
  await user.upload(screen.getByLabelText('CSV or TXT file'), new File([contents], 'members.csv', { type: 'text/csv' }));
  return mappingStep();
}

const TYPED = [
  'Email,Age,Joined,Member,Notes,Tier',
  'a@example.org,34,2024-01-31,yes,x,Gold',
  'b@example.org,35,2024-02-01,no,,Silver',
  'c@example.org,36,2024-02-02,yes,y,Gold',
  'd@example.org,37,2024-02-03,no,z,Gold',
  'e@example.org,38,2024-02-04,yes,w,Gold',
  'f@example.org,99,2024-02-05,no,sixth,Gold',
].join('\n');

describe('Import wizard: mapping the columns', () => {
  it('shows each column with its first five values, a new field for each with a suggested key and a guessed type', async () => {
    const { user } = setup();
    const list = await chooseFile(user, TYPED);
    expect(within(list).getAllByRole('listitem', { name: /^(Age|Joined|Member|Notes|Tier)$/ })).toHaveLength(5);
    expect(
      within(screen.getByRole('list', { name: 'First values of Age' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['34', '35', '36', '37', '38']);
    // A blank value is not shown.
    expect(within(screen.getByRole('list', { name: 'First values of Notes' })).getAllByRole('listitem')).toHaveLength(4);
    expect((screen.getByRole('combobox', { name: 'Column with the email address' }) as HTMLSelectElement).value).toBe('Email');
    const typeOf = (column: string) =>
      (screen.getByRole('combobox', { name: `Type of the new field for ${column}` }) as HTMLSelectElement).value;
    expect([typeOf('Age'), typeOf('Joined'), typeOf('Member'), typeOf('Notes')]).toEqual(['NUMBER', 'DATE', 'YES_NO', 'TEXT']);
    expect((screen.getByRole('textbox', { name: /Key of the new field for Joined/ }) as HTMLInputElement).value).toBe('joined');
  });

  it('sends the mapping: new fields as edited, a choice with its options, a column left out', async () => {
    const append = vi.spyOn(FormData.prototype, 'append');
    const { user } = setup();
    await chooseFile(user, TYPED);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Notes goes to' }), 'Not imported');
    expect(screen.queryByRole('textbox', { name: /Key of the new field for Notes/ })).toBeNull();
    const key = screen.getByRole('textbox', { name: /Key of the new field for Age/ });
    await user.clear(key);
    await user.type(key, 'years');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type of the new field for Tier' }), 'One of a list');
    expect(button('Import').disabled).toBe(true);
    expect(screen.getByText('List the options, separated by commas.')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /Options of the new field for Tier/ }), 'Gold, Silver');
    await user.click(screen.getAllByRole('checkbox', { name: 'Required' })[0]!);
    await waitFor(() => expect(button('Import').disabled).toBe(false));
    await chooseBasis(user);
    await user.click(button('Import'));
    await waitFor(() => expect(sentMapping(append)).toBeDefined());
    expect(sentMapping(append)).toEqual({
      emailColumn: 'Email',
      columns: [
        { column: 'Age', to: 'new', key: 'years', label: 'Age', type: 'NUMBER', required: true },
        { column: 'Joined', to: 'new', key: 'joined', label: 'Joined', type: 'DATE' },
        { column: 'Member', to: 'new', key: 'member', label: 'Member', type: 'YES_NO' },
        { column: 'Notes', to: 'none' },
        { column: 'Tier', to: 'new', key: 'tier', label: 'Tier', type: 'CHOICE', options: ['Gold', 'Silver'] },
      ],
    });
  });

  it('says what is wrong: a key that is taken or not a merge tag, a field given two columns, no address column', async () => {
    const { user } = setup({}, undefined, {
      fields: [{ key: 'age', label: 'Age', type: 'NUMBER', options: null, required: false }],
      remembered: null,
    });
    await chooseFile(user, TYPED);
    // The column named like the field goes to it.
    expect((screen.getByRole('combobox', { name: 'Age goes to' }) as HTMLSelectElement).value).toBe('age');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Notes goes to' }), 'Age (a number)');
    expect(screen.getByText("The column 'Age' goes to this field already.")).toBeTruthy();
    expect(button('Import').disabled).toBe(true);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Notes goes to' }), 'A new field');
    const key = screen.getByRole('textbox', { name: /Key of the new field for Notes/ });
    await user.clear(key);
    await user.type(key, 'AGE');
    expect(screen.getByText("The audience already has a field 'age'.")).toBeTruthy();
    await user.clear(key);
    await user.type(key, '1st note');
    expect(screen.getByText('A key starts with a letter and holds only letters, digits and _.')).toBeTruthy();
    await user.clear(key);
    await user.type(key, 'note');
    await waitFor(() => expect(button('Import').disabled).toBe(false));
  });

  it('finds no address column by name: one is chosen, and the column it was becomes one to map', async () => {
    const append = vi.spyOn(FormData.prototype, 'append');
    const { user } = setup();
    await chooseFile(user, 'Who,Name\nann@example.org,Ann\n');
    expect(screen.getByText('Choose the column that holds the email address.')).toBeTruthy();
    expect(button('Import').disabled).toBe(true);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Column with the email address' }), 'Who');
    expect(screen.queryByRole('combobox', { name: 'Who goes to' })).toBeNull();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Column with the email address' }), 'Name');
    expect((screen.getByRole('combobox', { name: 'Who goes to' }) as HTMLSelectElement).value).toBe('+none');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Column with the email address' }), 'Who');
    await chooseBasis(user);
    await user.click(button('Import'));
    await waitFor(() => expect(sentMapping(append)).toEqual({ emailColumn: 'Who', columns: [{ column: 'Name', to: 'none' }] }));
  });

  it('offers again what the last import did with columns of the same name', async () => {
    const append = vi.spyOn(FormData.prototype, 'append');
    const { user } = setup({}, undefined, {
      fields: [
        { key: 'years', label: 'Age', type: 'NUMBER', options: null, required: false },
        { key: 'gone', label: 'Gone', type: 'TEXT', options: null, required: false },
      ],
      remembered: {
        emailColumn: 'Mail',
        columns: [
          { column: 'Age', key: 'years' },
          { column: 'Notes', key: null },
          { column: 'City', key: 'removed' },
        ],
      },
    });
    await chooseFile(user, 'Mail,Age,Notes,City\nann@example.org,3,x,Paris\n');
    expect((screen.getByRole('combobox', { name: 'Column with the email address' }) as HTMLSelectElement).value).toBe('Mail');
    await chooseBasis(user);
    await user.click(button('Import'));
    await waitFor(() => expect(sentMapping(append)).toBeDefined());
    expect(sentMapping(append)).toEqual({
      emailColumn: 'Mail',
      columns: [
        { column: 'Age', to: 'field', key: 'years' },
        { column: 'Notes', to: 'none' },
        // Its field was removed since: a new one, as for a column never seen.
        { column: 'City', to: 'new', key: 'city', label: 'City', type: 'TEXT' },
      ],
    });
  });
});

describe('Import wizard for an audience that already has a source', () => {
  it('says it cannot take more contacts and links back to the audience', async () => {
    const { user, location } = setup({ source: 'CSV', numberOfContacts: 3 });
    const notice = await screen.findByText(/cannot take more contacts/);
    expect((screen.getByRole('radio', { name: /Upload file/ }) as HTMLInputElement).disabled).toBe(false);
    await user.click(within(notice.closest('.fui-MessageBar') as HTMLElement).getByRole('link', { name: 'Back to Audience Details' }));
    await waitFor(() => expect(location().pathname).toBe('/audiences/4'));
  });

  it('disables the import methods when the source is neither CSV nor TEXT', async () => {
    setup({ source: 'BIG_QUERY' });
    await screen.findByText(/cannot take more contacts/);
    expect((screen.getByRole('radio', { name: /Upload file/ }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('radio', { name: /Copy and Paste/ }) as HTMLInputElement).disabled).toBe(true);
    expect(button('Next').disabled).toBe(true);
  });
});
