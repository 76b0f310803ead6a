import { useShell } from '../../ShellContext';

/**
 * The shell's own calls to the API (its admin screens: API keys, webhooks): the answer's JSON, or an Error carrying the
 * API's message, so a screen shows what the API said (a refused URL, a role) rather than a status code.
 */
export function useShellApi() {
  const { apiBaseUrl, getAccessToken } = useShell();
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const token = await getAccessToken();
    const response = await fetch(`${apiBaseUrl}${path}`, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as T & { message?: string };
    if (!response.ok) throw new Error(answer.message ?? `${method} ${path} answered ${response.status}`);
    return answer;
  };
}
