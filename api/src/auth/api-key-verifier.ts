/**
 * Bearer tokens are of two kinds: the identity provider's JWT for members, and API keys (`mr_...`, issue 27)
 * for scripts. This verifier tells them apart by the prefix, so the rest of the API sees one kind of caller.
 */
import { API_KEY_PREFIX, type ApiKeyService } from '../services/api-keys/api-key-service.js';
import { AuthError, type TokenVerifier } from './verifier.js';

export function withApiKeys(verifier: TokenVerifier, apiKeys: Pick<ApiKeyService, 'authenticate'>): TokenVerifier {
  return {
    async verify(token) {
      if (!token.startsWith(API_KEY_PREFIX)) return verifier.verify(token);
      const caller = await apiKeys.authenticate(token);
      if (!caller) throw new AuthError(401, 'Invalid, revoked or expired API key');
      return caller;
    },
  };
}
