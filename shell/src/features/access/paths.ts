/** The shell's API keys screen (issue 27): its path, apart from the screen so that linking to it loads none of it. */
export const API_KEYS_PATH = '/settings/api-keys';
