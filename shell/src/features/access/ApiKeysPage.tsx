import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Dropdown,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Option,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { Schemas } from '@mailroom/api-client';
import { ROLES, roleLabel, type Role } from '@mailroom/mf-contract/roles';
import { useRole } from './useCaller';
import { useShellApi } from './useShellApi';

type ApiKey = Schemas['ApiKey'];
type CreatedApiKey = Schemas['CreatedApiKey'];

const KEYS = ['shell', 'api-keys'] as const;
const EXPIRIES = [
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: 'A year' },
];

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, padding: tokens.spacingHorizontalL },
  form: { display: 'flex', flexWrap: 'wrap', alignItems: 'end', gap: tokens.spacingHorizontalM },
  key: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
});

/**
 * An admin's API keys (issue 27; docs/decisions/access.md): the list, a new key (name, the role it may act as, an
 * expiry) shown once, and revocation. Scopes narrower than a role (single operations) are the API's, for scripts.
 */
export function ApiKeysPage() {
  const styles = useStyles();
  const api = useShellApi();
  const queryClient = useQueryClient();
  const { role } = useRole();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<Role>('viewer');
  const [days, setDays] = useState(90);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const keys = useQuery({
    queryKey: KEYS,
    // Whether a key has expired is decided when the list is read, not at every render.
    queryFn: async () =>
      (await api<ApiKey[]>('GET', '/api/api-keys')).map((key) => ({ ...key, expired: Date.parse(key.expiresAt) <= Date.now() })),
    enabled: role === 'admin',
  });
  const create = useMutation({
    mutationFn: () =>
      api<CreatedApiKey>('POST', '/api/api-keys', {
        name: name.trim(),
        scopes: [scope],
        expiresAt: new Date(Date.now() + days * 86_400_000).toISOString(),
      }),
    onSuccess: (key) => {
      setCreated(key);
      setName('');
      void queryClient.invalidateQueries({ queryKey: KEYS });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => api<ApiKey>('DELETE', `/api/api-keys/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: KEYS }),
  });

  if (role !== 'admin') {
    return (
      <section className={styles.page} aria-labelledby="api-keys-title">
        <Title2 as="h1" id="api-keys-title">
          API keys
        </Title2>
        <Text>Admins can manage API keys.</Text>
      </section>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.mutate();
  };

  return (
    <section className={styles.page} aria-labelledby="api-keys-title">
      <Title2 as="h1" id="api-keys-title">
        API keys
      </Title2>
      <Text>
        A key calls the API as `Authorization: Bearer mr_...`, with the role chosen here at most. Its calls are logged under its name.
      </Text>

      <form className={styles.form} onSubmit={submit} aria-label="New API key">
        <Field label="Name" required>
          <Input value={name} maxLength={100} onChange={(_event, data) => setName(data.value)} />
        </Field>
        <Field label="Acts as">
          <Dropdown
            value={roleLabel(scope)}
            selectedOptions={[scope]}
            onOptionSelect={(_event, data) => setScope(data.optionValue as Role)}
          >
            {ROLES.map((each) => (
              <Option key={each} value={each}>
                {roleLabel(each)}
              </Option>
            ))}
          </Dropdown>
        </Field>
        <Field label="Expires in">
          <Dropdown
            value={EXPIRIES.find((each) => each.days === days)!.label}
            selectedOptions={[String(days)]}
            onOptionSelect={(_event, data) => setDays(Number(data.optionValue))}
          >
            {EXPIRIES.map((each) => (
              <Option key={each.days} value={String(each.days)}>
                {each.label}
              </Option>
            ))}
          </Dropdown>
        </Field>
        <Button type="submit" appearance="primary" disabled={!name.trim() || create.isPending}>
          Create key
        </Button>
      </form>

      {create.isError && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{create.error.message}</MessageBarBody>
        </MessageBar>
      )}
      {created && (
        <MessageBar intent="success" role="status">
          <MessageBarBody>
            <Text block>The key “{created.name}”, shown this once: copy it now.</Text>
            <Text block className={styles.key} data-testid="new-api-key">
              {created.key}
            </Text>
          </MessageBarBody>
        </MessageBar>
      )}
      {revoke.isError && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{revoke.error.message}</MessageBarBody>
        </MessageBar>
      )}

      <Table aria-label="API keys">
        <TableHeader>
          <TableRow>
            <TableHeaderCell>Name</TableHeaderCell>
            <TableHeaderCell>Key</TableHeaderCell>
            <TableHeaderCell>Scopes</TableHeaderCell>
            <TableHeaderCell>Expires</TableHeaderCell>
            <TableHeaderCell>State</TableHeaderCell>
            <TableHeaderCell>Actions</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {(keys.data ?? []).map((key) => {
            return (
              <TableRow key={key.id}>
                <TableCell>{key.name}</TableCell>
                <TableCell className={styles.key}>{key.prefix}…</TableCell>
                <TableCell>{key.scopes.join(', ')}</TableCell>
                <TableCell>{new Date(key.expiresAt).toLocaleDateString()}</TableCell>
                <TableCell>{key.revokedAt ? 'Revoked' : key.expired ? 'Expired' : 'Active'}</TableCell>
                <TableCell>
                  {!key.revokedAt && (
                    <Button
                      size="small"
                      aria-label={`Revoke ${key.name}`}
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate(key.id)}
                    >
                      Revoke
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {keys.isSuccess && keys.data.length === 0 && <Text>No API keys yet.</Text>}
      {keys.isError && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>Failed to load the API keys</MessageBarBody>
        </MessageBar>
      )}
    </section>
  );
}
