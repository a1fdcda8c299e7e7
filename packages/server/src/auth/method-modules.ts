import { createEnabledMethodsRouteModule } from './enabled-methods';
import { createMfaRouteModule } from './mfa/mfa-routes';
import { createOauthRouteModule } from './oauth/oauth-routes';
import { readOAuthProviders } from './oauth/providers';
import { createPasswordlessRouteModule } from './passwordless/passwordless-routes';
import { readPasswordlessSettings } from './passwordless/passwordless-settings';
import type { AuthRouteModule } from './routes';
import { createSmsRouteModule } from './sms/sms-routes';
import { readSmsSettings } from './sms/sms-settings';
import { readWebauthnSettings } from './webauthn/webauthn-config';
import { createWebauthnRouteModule } from './webauthn/webauthn-routes';

/**
 * The route modules of the other sign-in methods (src/auth/{mfa,webauthn,oauth,sms,passwordless}),
 * mounted after the core's when the plugin is given no explicit `modules`, and GET /methods,
 * which reports the same settings those modules run with. A function, not a constant, so that
 * the settings are read from `env` at start, not at import; startServer passes the environment
 * with the demo world's defaults (demo-methods.ts).
 */
export function authMethodModules(env: Readonly<Record<string, string | undefined>> = process.env): readonly AuthRouteModule[] {
  const sms = readSmsSettings(env);
  const passwordless = readPasswordlessSettings(env);
  const webauthn = readWebauthnSettings(env);
  const providers = readOAuthProviders(env);
  const issuer = env.AUTH_MFA_TOTP_ISSUER?.trim();
  return [
    createMfaRouteModule(issuer ? { issuer } : {}),
    createWebauthnRouteModule(webauthn),
    createOauthRouteModule({ providers }),
    createSmsRouteModule(sms),
    createPasswordlessRouteModule(passwordless),
    createEnabledMethodsRouteModule({ sms, passwordless, webauthn, oauthProviders: [...providers.keys()] }),
  ];
}
