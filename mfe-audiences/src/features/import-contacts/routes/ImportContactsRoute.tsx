import { Button, Field, MessageBar, MessageBarBody, ProgressBar, Spinner, Title1, makeStyles, tokens } from '@fluentui/react-components';
import { errorMessage } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { AudienceNotFound } from '../../../components/AudienceNotFound';
import { parseRouteId, RouterLink } from '@mailroom/ui';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { filePayload, useImportContacts, useImportTarget, type ImportMethod, type ImportPayload } from '../api/importContacts';
import { ImportMethodStep } from '../components/ImportMethodStep';
import { ImportSteps } from '../components/ImportSteps';
import { PasteContactsStep } from '../components/PasteContactsStep';
import { UploadFileStep } from '../components/UploadFileStep';

export const IMPORT_STARTED = 'Contacts are being imported in the background.';
export const IMPORT_FAILED = 'Something went wrong';

/** The sources this wizard can add to; the others (BIG_QUERY, FILTERS) are never offered. */
const OFFERED_SOURCES = new Set(['CSV', 'TEXT']);

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL, maxWidth: '760px' },
  actions: { display: 'flex', justifyContent: 'flex-end', columnGap: tokens.spacingHorizontalS },
});

/** /audiences/{id}/import: choose a method, then upload a file or paste contacts. */
export function ImportContactsRoute() {
  const styles = useStyles();
  const { basePath, notify, features } = useRemote();
  const navigate = useNavigate();
  const id = parseRouteId(useParams().id);
  const audience = useImportTarget(id ?? 0);
  const importContacts = useImportContacts(id ?? 0);

  const [step, setStep] = useState<0 | 1>(0);
  const [method, setMethod] = useState<ImportMethod | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [text, setText] = useState('');

  if (id !== null && audience.isPending) return <Spinner label="Loading audience..." />;
  if (id === null || !audience.data) {
    return <AudienceNotFound error={id === null ? null : audience.error} onRetry={() => void audience.refetch()} />;
  }

  const { source } = audience.data;
  const detailPath = `${basePath}/${id}`;
  const methodsDisabled = source !== null && !OFFERED_SOURCES.has(source);
  const uploading = importContacts.isPending;
  const payload: ImportPayload | null =
    method === 'csv' && file ? filePayload(file) : method === 'text' && text.trim() !== '' ? { method, text } : null;

  const upload = () => {
    if (!payload) return;
    importContacts.mutate(payload, {
      onSuccess: () => {
        notify('info', IMPORT_STARTED);
        void navigate(detailPath);
      },
      onError: (error) => notify('error', errorMessage(error, IMPORT_FAILED)),
    });
  };

  return (
    <section className={styles.root} aria-labelledby="import-title">
      <Title1 as="h1" id="import-title">
        Import contacts into {audience.data.name}
      </Title1>
      <ImportSteps current={step} />

      {source !== null && (
        <MessageBar intent="info" layout="multiline">
          <MessageBarBody>
            This audience already has contacts imported from {source} and cannot take more contacts.{' '}
            <RouterLink to={detailPath} inline>
              Back to Audience Details
            </RouterLink>
          </MessageBarBody>
        </MessageBar>
      )}

      {step === 0 ? (
        <>
          <ImportMethodStep method={method} disabled={methodsDisabled} onChange={setMethod} />
          <div className={styles.actions}>
            <Button onClick={() => navigate(detailPath)}>Cancel</Button>
            <Button appearance="primary" disabled={method === null || methodsDisabled} onClick={() => setStep(1)}>
              Next
            </Button>
          </div>
        </>
      ) : (
        <>
          {method === 'csv' ? (
            <UploadFileStep file={file} disabled={uploading} maxBytes={features.importMaxBytes} onChange={setFile} />
          ) : (
            <PasteContactsStep text={text} disabled={uploading} onChange={setText} />
          )}
          {uploading && (
            <Field validationMessage="Uploading contacts..." validationState="none">
              <ProgressBar aria-label="Uploading contacts" />
            </Field>
          )}
          <div className={styles.actions}>
            <Button disabled={uploading} onClick={() => setStep(0)}>
              Back
            </Button>
            <Button appearance="primary" disabled={!payload || uploading} onClick={upload}>
              Import
            </Button>
          </div>
        </>
      )}
    </section>
  );
}
