import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ImageRegular } from '@fluentui/react-icons/svg/image';

const useStyles = makeStyles({
  image: {
    display: 'block',
    width: '64px',
    height: '64px',
    objectFit: 'cover',
    objectPosition: 'top',
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  large: { width: '160px', height: '160px' },
  none: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    fontSize: '24px',
    color: tokens.colorNeutralForeground3,
    backgroundColor: tokens.colorNeutralBackground3,
  },
});

/** A template's first-screen image, or a placeholder when it has none yet. */
export function TemplatePreviewImage({ name, preview, large = false }: { name: string; preview: string | null; large?: boolean }) {
  const styles = useStyles();
  const size = large ? styles.large : undefined;
  if (!preview) {
    return (
      <span className={mergeClasses(styles.image, styles.none, size)} role="img" aria-label={`No preview of ${name}`}>
        <ImageRegular />
      </span>
    );
  }
  return <img className={mergeClasses(styles.image, size)} src={preview} alt={`Preview of ${name}`} loading="lazy" />;
}
