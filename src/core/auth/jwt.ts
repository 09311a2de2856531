import { createSigner, createVerifier } from 'fast-jwt';

export interface TokenClaims {
  /** User id. */
  sub: string;
  /** The user's tokenVersion when the token was issued. */
  tv: number;
  iat: number;
  exp: number;
}

export interface TokenService {
  /** Signs an HS256 token for the user at the given tokenVersion. */
  sign(userId: string, tokenVersion: number): string;
  /** Answers the claims of a valid token, or null for any bad, expired or malformed one. */
  verify(token: string): TokenClaims | null;
}

export function createTokenService(secret: string, expiresInSec: number): TokenService {
  const signer = createSigner({ key: secret, algorithm: 'HS256', expiresIn: expiresInSec * 1000 });
  // Verified tokens are cached (by token, never past their expiry): a client sends the same
  // token on every request, and the signature check and decoding need doing once.
  const verifier = createVerifier({ key: secret, algorithms: ['HS256'], cache: 10_000 });
  return {
    sign: (userId, tokenVersion) => signer({ sub: userId, tv: tokenVersion }),
    verify(token) {
      try {
        const claims = verifier(token) as Partial<TokenClaims>;
        if (typeof claims.sub !== 'string' || typeof claims.tv !== 'number') return null;
        return claims as TokenClaims;
      } catch {
        return null;
      }
    },
  };
}
