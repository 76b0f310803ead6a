/** The shell's admin screens (issue 27): their paths, apart from the screens so that linking to them loads none of them. */
export const API_KEYS_PATH = '/settings/api-keys';
export const WEBHOOKS_PATH = '/settings/webhooks';
