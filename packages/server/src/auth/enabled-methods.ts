// GET /v1/auth/methods (ours; hasura-auth has no such endpoint): which sign-in and sign-up
// methods this server has switched on, so the web app offers only those instead of tabs that
// answer "This endpoint is disabled". Built from the very settings the method modules run with
// (method-modules.ts hands both the same objects), so the answer cannot disagree with the routes.
import type { FastifyInstance } from 'fastify';
import type { AuthContext } from './context';
import type { OAuthProviderId } from './oauth/providers';
import type { PasswordlessSettings } from './passwordless/passwordless-settings';
import type { AuthRouteModule } from './routes';
import type { SmsSettings } from './sms/sms-settings';
import type { WebauthnSettings } from './webauthn/webauthn-config';

/** The settings of the optional methods, as the modules received them. */
export interface MethodSettings {
  readonly sms: SmsSettings;
  readonly passwordless: PasswordlessSettings;
  readonly webauthn: WebauthnSettings;
  readonly oauthProviders: readonly OAuthProviderId[];
}

/** The answer of GET /methods. */
export interface EnabledMethods {
  readonly emailPassword: { readonly signIn: true; readonly signUp: boolean };
  /** POST /signin/passwordless/email. */
  readonly magicLink: boolean;
  /** POST /signin/otp/email. */
  readonly emailOtp: boolean;
  /** POST /signin/passwordless/sms and /sms/otp. */
  readonly smsOtp: boolean;
  readonly anonymous: boolean;
  /** TOTP as a second factor: always on (each user switches it on for themselves). */
  readonly totp: true;
  readonly personalAccessTokens: true;
  /**
   * Security keys work only on pages whose host is `rpId` or under it: a browser refuses a
   * relying party id that is an IP address, so at http://127.0.0.1 they cannot work.
   */
  readonly securityKeys: { readonly enabled: boolean; readonly rpId: string; readonly origins: readonly string[] };
  readonly oauthProviders: readonly OAuthProviderId[];
  /** Where mail and SMS go: `outbox` = kept in auth.outbox (read it with `npx vyuha outbox`). */
  readonly delivery: { readonly email: 'smtp' | 'outbox'; readonly sms: 'outbox' };
}

/** The answer for these settings and the core's configuration. */
export function enabledMethods(settings: MethodSettings, context: Pick<AuthContext, 'config'>): EnabledMethods {
  const { config } = context;
  return {
    emailPassword: { signIn: true, signUp: !config.disableSignup },
    magicLink: settings.passwordless.magicLinkEnabled,
    emailOtp: settings.passwordless.emailOtpEnabled,
    smsOtp: settings.sms.enabled,
    anonymous: config.anonymousUsersEnabled,
    totp: true,
    personalAccessTokens: true,
    securityKeys: settings.webauthn.enabled
      ? { enabled: true, rpId: settings.webauthn.rpId, origins: settings.webauthn.origins }
      : { enabled: false, rpId: settings.webauthn.rpId, origins: [] },
    oauthProviders: settings.oauthProviders,
    delivery: { email: config.smtp === undefined ? 'outbox' : 'smtp', sms: 'outbox' },
  };
}

/** The route module of GET /methods. */
export function createEnabledMethodsRouteModule(settings: MethodSettings): AuthRouteModule {
  return {
    name: 'enabled-methods',
    register(app: FastifyInstance, context: AuthContext) {
      const answer = enabledMethods(settings, context);
      app.get('/methods', async (_request, reply) => {
        void reply.header('cache-control', 'no-cache');
        return answer;
      });
    },
  };
}
