// GraphQL documents of manager links and the acting trail (/manageAccounts, /manageAccounts/consent,
// /users/edit's Managers tab; server: graphql/actions/manager-link-actions.ts, table acting_audit).

/** The newest rows of the acting trail about one user (the manager's own rows, or the user's). */
export const ACTING_AUDIT_SUBSCRIPTION = `subscription ActingAudit($subjectId: uuid!) {
  acting_audit(where: { subject_id: { _eq: $subjectId } }, order_by: { created_at: desc }, limit: 20) {
    acting_audit_id actor_name operation_name root_fields outcome error created_at
  }
}`;

export interface ActingAuditRow {
  readonly acting_audit_id: string;
  readonly actor_name: string;
  readonly operation_name: string | null;
  readonly root_fields: readonly string[];
  readonly outcome: 'ok' | 'error';
  readonly error: string | null;
  readonly created_at: string;
}

export const REQUEST_MANAGER_LINK = `mutation RequestManagerLink($email: String!) {
  request_manager_link(email: $email) { email expires_at }
}`;

export const REMOVE_MANAGER_LINK = `mutation RemoveManagerLink($managerId: uuid!, $userId: uuid!) {
  remove_manager_link(manager_id: $managerId, user_id: $userId) { removed }
}`;

export const MANAGER_LINK_REQUEST_QUERY = `query ManagerLinkRequest($token: String!) {
  manager_link_request(token: $token) { valid manager_name expires_at }
}`;

export const RESPOND_MANAGER_LINK = `mutation RespondManagerLink($token: String!, $accept: Boolean!) {
  respond_manager_link(token: $token, accept: $accept) { response manager_name }
}`;

export const MY_MANAGERS_QUERY = `query MyManagers { my_managers { manager_id name since } }`;

export interface MyManager {
  readonly manager_id: string;
  readonly name: string;
  readonly since: string;
}

/** The server's refusal of an unknown, expired or used consent link (manager-link-actions.ts). */
export const LINK_NO_LONGER_VALID = 'This link is no longer valid';
