/** Every migration applied, nothing else. */
export const MIGRATED_TEMPLATE = 'vyuha_template';
/** Migrations plus the demo world. */
export const SEEDED_TEMPLATE = 'vyuha_template_seeded';
