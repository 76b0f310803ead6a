import { useEffect, useState } from 'react';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowUpRegular } from '@fluentui/react-icons';

const SHOW_AFTER_PX = 300;

const useStyles = makeStyles({
  button: {
    position: 'fixed',
    right: tokens.spacingHorizontalXXL,
    bottom: tokens.spacingVerticalXXL,
    zIndex: 20,
    boxShadow: tokens.shadow16,
  },
});

/** Appears once the page is scrolled down, and takes it back to the top. */
export function ScrollToTopButton() {
  const styles = useStyles();
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const update = () => setVisible(window.scrollY > SHOW_AFTER_PX);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);
  if (!visible) return null;
  return (
    <Button
      className={styles.button}
      shape="circular"
      size="large"
      appearance="primary"
      icon={<ArrowUpRegular />}
      aria-label="Scroll to top"
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
    />
  );
}
