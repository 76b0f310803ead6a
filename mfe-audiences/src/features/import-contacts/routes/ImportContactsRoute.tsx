import { Button, Field, MessageBar, MessageBarBody, ProgressBar, Spinner, Title1, makeStyles, tokens } from '@fluentui/react-components';
import { errorMessage, type LawfulBasis } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { AudienceNotFound } from '../../../components/AudienceNotFound';
import { LawfulBasisField } from '../../../components/LawfulBasisField';
import { parseRouteId, RoleGate, RouterLink } from '@mailroom/ui';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import {
  filePayload,
  useImportContacts,
  useImportMapping,
  useImportTarget,
  type ImportMethod,
  type ImportPayload,
} from '../api/importContacts';
import { MappingStep } from '../components/MappingStep';
import { choiceProblems, initialChoices, mappingOf, readStart, type FilePreview, type MappingChoices } from '../mapping';
import { ImportMethodStep } from '../components/ImportMethodStep';
import { ImportSteps } from '../components/ImportSteps';
import { PasteContactsStep } from '../components/PasteContactsStep';
import { UploadFileStep } from '../components/UploadFileStep';

export const IMPORT_STARTED = 'Contacts are being imported in the background.';
export const IMPORT_FAILED = 'Something went wrong';
export const CHOOSE_LAWFUL_BASIS = 'Choose why your organisation may email these contacts.';

/** The sources this wizard can add to; the others (BIG_QUERY, FILTERS) are never offered. */
const OFFERED_SOURCES = new Set(['CSV', 'TEXT']);

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL, maxWidth: '760px' },
  actions: { display: 'flex', justifyContent: 'flex-end', columnGap: tokens.spacingHorizontalS },
});

/** The choices offered for a new read of the file, with the member's earlier choices for the columns still there. */
function carried(before: MappingChoices | undefined, offered: MappingChoices, preview: FilePreview): MappingChoices {
  if (!before) return offered;
  const emailColumn = preview.columns.includes(before.emailColumn) ? before.emailColumn : offered.emailColumn;
  const columns = { ...offered.columns };
  for (const column of preview.columns) if (before.columns[column]) columns[column] = before.columns[column];
  delete columns[emailColumn];
  return { emailColumn, columns };
}

/** /audiences/{id}/import: choose a method, then upload a file or paste contacts, and map its columns. */
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
  const mappingView = useImportMapping(id ?? 0);
  const [read, setRead] = useState<{ source: Blob | string; preview: FilePreview | null } | null>(null);
  const [edited, setEdited] = useState<{ preview: FilePreview; choices: MappingChoices } | null>(null);
  // Recorded in the consent ledger with the import (issue 25): no default, the member chooses.
  const [lawfulBasis, setLawfulBasis] = useState<LawfulBasis | null>(null);
  const [basisAsked, setBasisAsked] = useState(false);

  // The start of the chosen file or the pasted text, read again when it changes (typing waits a moment).
  const mapped: Blob | string | null = method === 'csv' ? file : method === 'text' && text.trim() !== '' ? text : null;
  useEffect(() => {
    if (mapped === null) return;
    let live = true;
    const timer = setTimeout(
      () =>
        void readStart(mapped).then(
          (preview) => live && setRead({ source: mapped, preview }),
          () => live && setRead({ source: mapped, preview: null }),
        ),
      typeof mapped === 'string' ? 300 : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [mapped]);
  const preview = read !== null && read.source === mapped ? read.preview : null;
  const reading = mapped !== null && read?.source !== mapped;

  // The first choices once the file and the audience's fields are known; after a new read (pasted text edited) a
  // column still there keeps the member's choice.
  const viewReady = mappingView.isSuccess || mappingView.isError;
  const offered = useMemo(
    () => (preview && viewReady ? initialChoices(preview, mappingView.data) : null),
    [preview, viewReady, mappingView.data],
  );
  const choices = preview && offered ? (edited?.preview === preview ? edited.choices : carried(edited?.choices, offered, preview)) : null;
  const setChoices = (next: MappingChoices) => preview && setEdited({ preview, choices: next });

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

  const fields = mappingView.data?.fields ?? [];
  const problems = preview && choices ? choiceProblems(choices, preview, fields) : {};
  // A start with no header has nothing to map: the API says what is wrong with it.
  const mappingReady = !reading && (preview === null || (choices !== null && Object.keys(problems).length === 0));

  const upload = () => {
    setBasisAsked(true);
    if (!payload || !mappingReady || lawfulBasis === null) return;
    const mapping = preview && choices ? mappingOf(choices, preview) : undefined;
    importContacts.mutate(
      { payload, mapping, lawfulBasis },
      {
        onSuccess: () => {
          notify('info', IMPORT_STARTED);
          void navigate(detailPath);
        },
        onError: (error) => notify('error', errorMessage(error, IMPORT_FAILED)),
      },
    );
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
            {/* A member who cannot import is stopped at the first step, before choosing a file for nothing. */}
            <RoleGate needs="editor" action="import contacts">
              {(lock) => (
                <Button appearance="primary" disabled={method === null || methodsDisabled} onClick={() => setStep(1)} {...lock}>
                  Next
                </Button>
              )}
            </RoleGate>
          </div>
        </>
      ) : (
        <>
          {/* First: the mapping step and its reading appear below as the file is read, and would move it. */}
          <LawfulBasisField
            value={lawfulBasis}
            onChange={setLawfulBasis}
            disabled={uploading}
            validationMessage={basisAsked && lawfulBasis === null ? CHOOSE_LAWFUL_BASIS : undefined}
          />
          {method === 'csv' ? (
            <UploadFileStep file={file} disabled={uploading} maxBytes={features.importMaxBytes} onChange={setFile} />
          ) : (
            <PasteContactsStep text={text} disabled={uploading} onChange={setText} />
          )}
          {preview && choices && (
            <MappingStep
              preview={preview}
              fields={fields}
              choices={choices}
              problems={problems}
              disabled={uploading}
              onChange={setChoices}
            />
          )}
          {reading && <Spinner size="tiny" label="Reading the columns..." />}
          {uploading && (
            <Field validationMessage="Uploading contacts..." validationState="none">
              <ProgressBar aria-label="Uploading contacts" />
            </Field>
          )}
          <div className={styles.actions}>
            <Button disabled={uploading} onClick={() => setStep(0)}>
              Back
            </Button>
            <RoleGate needs="editor" action="import contacts">
              {(lock) => (
                <Button appearance="primary" disabled={!payload || uploading || !mappingReady} onClick={upload} {...lock}>
                  Import
                </Button>
              )}
            </RoleGate>
          </div>
        </>
      )}
    </section>
  );
}
