import { createMfaRouteModule } from './mfa/mfa-routes';
import { createOauthRouteModule } from './oauth/oauth-routes';
import { createPasswordlessRouteModule } from './passwordless/passwordless-routes';
import type { AuthRouteModule } from './routes';
import { createSmsRouteModule } from './sms/sms-routes';
import { createWebauthnRouteModule } from './webauthn/webauthn-routes';

/**
 * The route modules of the other sign-in methods (src/auth/{mfa,webauthn,oauth,sms,passwordless}),
 * mounted after the core's when the plugin is given no explicit `modules`. A function, not a
 * constant, so that module factories reading their environment run at start, not at import.
 */
export function authMethodModules(): readonly AuthRouteModule[] {
  return [
    createMfaRouteModule(),
    createWebauthnRouteModule(),
    createOauthRouteModule(),
    createSmsRouteModule(),
    createPasswordlessRouteModule(),
  ];
}
