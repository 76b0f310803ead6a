import { makeStyles, tokens } from '@fluentui/react-components';
import { MailTemplateRegular } from '@fluentui/react-icons';

const useStyles = makeStyles({
  frame: {
    width: '72px',
    height: '96px',
    flexShrink: 0,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    overflow: 'hidden',
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground3,
    fontSize: '32px',
  },
  image: { width: '100%', height: '100%', objectFit: 'cover', objectPosition: 'top' },
});

/** The template's preview image, or a placeholder until its first save made one. */
export function TemplatePreviewImage({ name, preview }: { name: string; preview: string | null }) {
  const styles = useStyles();
  return (
    <span className={styles.frame}>
      {preview ? (
        <img className={styles.image} src={preview} alt={`Preview of ${name}`} loading="lazy" />
      ) : (
        <MailTemplateRegular role="img" aria-label={`No preview of ${name} yet`} />
      )}
    </span>
  );
}
