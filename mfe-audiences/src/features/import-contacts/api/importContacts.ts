import { useMutation, useQuery } from '@tanstack/react-query';
import { expectBody, type Audience, type LawfulBasis } from '@mailroom/api-client';
import type { ImportMapping } from '@mailroom/api-client/fields';
import type { ImportMappingView } from '../mapping';
import { useApiClient } from '@mailroom/mf-contract/react';
import { importKeys } from './keys';

/** How the contacts are given: a file (type=csv) or pasted text (type=text). */
export type ImportMethod = 'csv' | 'text';

/** The server turns pasted text into a file under this name (docs/product.md, the screens' checks). */
export const PASTED_CONTACTS_FILE_NAME = 'contactsInText.csv';

/** The audience receiving the import: its source decides whether it can take contacts. */
export function useImportTarget(id: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: importKeys.audience(id),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}', { params: { path: { id } }, signal });
      return expectBody<Audience>(data);
    },
    enabled: id > 0,
  });
}

/** The audience's fields and what its last import did with each column: what the mapping step offers. */
export function useImportMapping(id: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: importKeys.mapping(id),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}/import-mapping', { params: { path: { id } }, signal });
      return expectBody<ImportMappingView>(data);
    },
    enabled: id > 0,
  });
}

/** A CSV file goes up as itself (type=csv); pasted text and a tab-delimited .txt file go up as text (type=text). */
export type ImportPayload = { method: 'csv'; file: File } | { method: 'text'; text: string | Blob };

/**
 * The payload for a chosen file: only a `.csv` name is sent as a CSV file (the API's rule for type=csv);
 * anything else the drop area takes (a .txt file) is sent as pasted text is, so it becomes a TEXT import.
 */
export const filePayload = (file: File): ImportPayload =>
  /\.csv$/i.test(file.name) ? { method: 'csv', file } : { method: 'text', text: file };

/** Uploads the contacts; the import itself runs in the background on the server. */
export function useImportContacts(id: number) {
  const client = useApiClient();
  return useMutation({
    mutationFn: async ({
      payload,
      mapping,
      lawfulBasis,
    }: {
      payload: ImportPayload;
      mapping?: ImportMapping | undefined;
      lawfulBasis: LawfulBasis;
    }) => {
      const file = payload.method === 'csv' ? payload.file : new File([payload.text], PASTED_CONTACTS_FILE_NAME, { type: 'text/csv' });
      const form = new FormData();
      // Before the file: the API checks the file's start for the address column the mapping names.
      if (mapping) form.append('mapping', JSON.stringify(mapping));
      form.append('lawfulBasis', lawfulBasis);
      form.append('file', file, file.name);
      await client.POST('/api/audiences/{id}/import/file', {
        params: { path: { id }, query: { type: payload.method } },
        // The schema types the binary field as a string; the multipart body is built here.
        body: form as unknown as { file: string; mapping?: string; lawfulBasis?: LawfulBasis },
      });
    },
  });
}
