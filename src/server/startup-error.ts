/**
 * A reason the server cannot start that is no usage mistake (the database refused the login, its
 * schema is newer than this server): main prints its message as one line, without the usage text.
 */
export class StartupError extends Error {}
