import { Button, MessageBar, MessageBarBody, Text, makeStyles, mergeClasses, shorthands, tokens } from '@fluentui/react-components';
import { DismissRegular, DocumentArrowUpRegular } from '@fluentui/react-icons';
import { useDropzone, type Accept, type FileRejection } from 'react-dropzone';
import { useState } from 'react';

/** .csv and the media types browsers give CSV files, and tab-delimited .txt files (docs/product.md's import wizard, step 0). */
export const CONTACTS_FILE_ACCEPT: Accept = {
  'text/csv': ['.csv'],
  'application/vnd.ms-excel': ['.csv'],
  'text/plain': ['.txt'],
};

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  zone: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    rowGap: tokens.spacingVerticalS,
    padding: tokens.spacingVerticalXXL,
    ...shorthands.border(tokens.strokeWidthThick, 'dashed', tokens.colorNeutralStroke1),
    borderRadius: tokens.borderRadiusLarge,
    cursor: 'pointer',
    textAlign: 'center',
    ':focus-visible': {
      outlineWidth: tokens.strokeWidthThick,
      outlineStyle: 'solid',
      outlineColor: tokens.colorStrokeFocus2,
    },
  },
  active: { ...shorthands.borderColor(tokens.colorBrandStroke1), backgroundColor: tokens.colorBrandBackground2 },
  icon: { fontSize: '40px' },
  file: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalS },
});

export interface UploadFileStepProps {
  file: File | null;
  disabled: boolean;
  /** The largest file the API takes (IMPORT_MAX_BYTES): a larger one is refused here, before any upload. */
  maxBytes: number;
  onChange: (file: File | null) => void;
}

/** Why files were refused, each message once (react-dropzone's wording, as the spec gives it). */
function rejectionMessages(rejections: readonly FileRejection[]): string[] {
  return [...new Set(rejections.flatMap((rejection) => rejection.errors.map((error) => error.message)))];
}

/** Step 1 for files: one CSV or tab-delimited TXT file, dropped or chosen. */
export function UploadFileStep({ file, disabled, maxBytes, onChange }: UploadFileStepProps) {
  const styles = useStyles();
  const [errors, setErrors] = useState<string[]>([]);
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    accept: CONTACTS_FILE_ACCEPT,
    maxFiles: 1,
    multiple: false,
    minSize: 1,
    maxSize: maxBytes,
    disabled,
    onDrop: (accepted, rejections) => {
      setErrors(rejectionMessages(rejections));
      if (accepted[0]) onChange(accepted[0]);
    },
  });

  return (
    <div className={styles.root}>
      <div
        {...getRootProps({
          className: mergeClasses(styles.zone, isDragActive && styles.active),
          role: 'button',
          // No aria-label: its name is all the words it shows (axe: label-content-name-mismatch).
          'aria-disabled': disabled,
        })}
      >
        <DocumentArrowUpRegular className={styles.icon} aria-hidden />
        <Text>{isDragActive ? 'Drop the file here' : 'Drop a CSV or TXT file here, or press to choose one'}</Text>
        <Text size={200}>One file. The first row names the columns and must include an email column.</Text>
      </div>
      {/* Beside the drop area, not in it: a control inside a button is unreachable to assistive technology (axe: nested-interactive). */}
      <input {...getInputProps({ 'aria-label': 'CSV or TXT file' })} />
      {errors.length > 0 && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>
            {errors.map((message) => (
              <div key={message}>{message}</div>
            ))}
          </MessageBarBody>
        </MessageBar>
      )}
      {file && (
        <div className={styles.file}>
          <Text weight="semibold">{file.name}</Text>
          <Text size={200}>({file.size} bytes)</Text>
          <Button
            appearance="subtle"
            size="small"
            icon={<DismissRegular />}
            aria-label={`Remove ${file.name}`}
            disabled={disabled}
            onClick={() => onChange(null)}
          />
        </div>
      )}
    </div>
  );
}
