/**
 * The account button's accessible name. It holds the name the button shows (WCAG 2.5.3, label in
 * name) and says what the button is; with no name shown it is just 'Account'.
 */
export function accountLabel(name: string, compact: boolean): string {
  return compact || !name ? 'Account' : `${name}, account`;
}
