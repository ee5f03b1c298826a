/** The largest file the agent's tools read or search: larger ones are read in part by a command. */
export const maxReadBytes = 2 * 1024 * 1024;

/** The limit as the tools' messages say it. */
export const maxReadSize = `${maxReadBytes / 1024 / 1024} MB`;
