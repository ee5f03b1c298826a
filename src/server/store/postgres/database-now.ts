// The database's clock in SQL, for times that replicas share: each replica's wall clock may be
// minutes off (no NTP), the database's is one for all of them.

/** now() (the statement's transaction's start), ms since the epoch. */
export const DATABASE_NOW_MS = "(extract(epoch FROM now()) * 1000)::bigint";

/** now(), whole seconds since the epoch (as keys' times are kept). */
export const DATABASE_NOW_S = "floor(extract(epoch FROM now()))::bigint";
