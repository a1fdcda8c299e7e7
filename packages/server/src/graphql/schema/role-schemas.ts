/**
 * The per-role schemas, built lazily on first use and kept for the life of the engine (the
 * metadata and catalogue do not change while it runs).
 */
import type { GraphQLSchema } from 'graphql';
import type { Catalogue } from '../catalogue';
import type { ActionDeclaration } from '../metadata/types';
import { buildRoleSchema } from './build-schema';
import { buildRoleModel, roleKey, type RoleModel } from './role-model';

export interface RoleSchema {
  readonly schema: GraphQLSchema;
  readonly model: RoleModel;
}

export class RoleSchemas {
  private readonly built = new Map<string, RoleSchema>();

  constructor(private readonly options: { readonly catalogue: Catalogue; readonly actions: readonly ActionDeclaration[] }) {}

  /** The schema and model of a session's role (the admin secret has its own). */
  forSession(session: { readonly admin: boolean; readonly role: string }): RoleSchema {
    const key = roleKey(session);
    let entry = this.built.get(key);
    if (!entry) {
      const model = buildRoleModel(this.options.catalogue, session);
      entry = { schema: buildRoleSchema({ catalogue: this.options.catalogue, model, actions: this.options.actions }), model };
      this.built.set(key, entry);
    }
    return entry;
  }

  /** Every role named by a permission or an action. */
  knownRoles(): string[] {
    const roles = new Set<string>();
    for (const table of this.options.catalogue.tables.values()) for (const role of Object.keys(table.declaration.permissions)) roles.add(role);
    for (const action of this.options.actions) for (const role of action.roles) roles.add(role);
    return [...roles].sort();
  }
}
