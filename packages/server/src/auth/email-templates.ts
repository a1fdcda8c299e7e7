import type { EmailTemplate, SendTemplateOptions } from './context';

/** A rendered e-mail. */
export interface RenderedEmail {
  readonly subject: string;
  readonly text: string;
}

const SIGNATURE = '\n\n-- \nVyuha\nIf you did not ask for this, you can ignore this message: nothing changes until the link is used.';

/**
 * Plain-text templates (readable in any client, nothing to render or track). Each says what
 * happened, gives the link or code, and how long it lasts.
 */
const TEMPLATES: Readonly<Record<EmailTemplate, (options: SendTemplateOptions) => RenderedEmail>> = {
  'email-verify': (options) => ({
    subject: 'Verify your email address for Vyuha',
    text: `${greeting(options)}Please confirm that this is your email address by opening this link:\n\n${options.link ?? ''}\n\nThe link works once and expires in one hour.${SIGNATURE}`,
  }),
  'password-reset': (options) => ({
    subject: 'Reset your Vyuha password',
    text: `${greeting(options)}Someone (hopefully you) asked to reset the password of your Vyuha account. To choose a new password, open this link:\n\n${options.link ?? ''}\n\nThe link works once and expires in one hour.${SIGNATURE}`,
  }),
  'email-confirm-change': (options) => ({
    subject: 'Confirm your new email address for Vyuha',
    text: `${greeting(options)}To make this address the email of your Vyuha account, open this link:\n\n${options.link ?? ''}\n\nUntil then your old address stays in use. The link works once and expires in one hour.${SIGNATURE}`,
  }),
  'signin-passwordless': (options) => ({
    subject: 'Your Vyuha sign-in link',
    text: `${greeting(options)}Open this link to sign in to Vyuha:\n\n${options.link ?? ''}\n\nThe link works once and expires in one hour.${SIGNATURE}`,
  }),
  'signup-existing-account': (options) => ({
    subject: 'You already have a Vyuha account',
    text: `${greeting(options)}Someone (maybe you) tried to create a new Vyuha account with this email address, which already has one. Nothing was changed.\n\nIf it was you, sign in instead; if you forgot your password, choose a new one here:\n\n${options.link ?? ''}\n\nIf it was not you, you can ignore this message.\n\n-- \nVyuha`,
  }),
  'signin-otp': (options) => ({
    subject: 'Your Vyuha sign-in code',
    text: `${greeting(options)}Your sign-in code is:\n\n    ${options.code ?? ''}\n\nIt expires in a few minutes. Never share it: Vyuha staff will never ask for it.${SIGNATURE}`,
  }),
  'manager-link-request': (options) => ({
    subject: `${options.otherName ?? 'A manager'} asks to manage your Vyuha account`,
    text: `${greeting(options)}${options.otherName ?? 'A manager'} asks to manage your Vyuha account: they would see your accounts and `
      + `could act for you (every change they make is recorded and shown to you). To accept or decline, open this link:\n\n${options.link ?? ''}\n\n`
      + `The link works once and expires in 7 days. You can remove the manager at any time from your account page.${SIGNATURE}`,
  }),
  'manager-link-removed': (options) => ({
    subject: 'A manager link of your Vyuha account was removed',
    text: `${greeting(options)}${options.otherName ?? 'The other party'} removed the manager link between your Vyuha accounts. `
      + 'Acting for the managed account stopped at once.\n\n-- \nVyuha',
  }),
};

function greeting(options: SendTemplateOptions): string {
  return options.displayName ? `Hello ${options.displayName},\n\n` : 'Hello,\n\n';
}

/** Renders one template. @example renderEmail({template: 'signin-otp', to: 'a@b.in', code: '123456'}).subject -> 'Your Vyuha sign-in code' */
export function renderEmail(options: SendTemplateOptions): RenderedEmail {
  return TEMPLATES[options.template](options);
}
