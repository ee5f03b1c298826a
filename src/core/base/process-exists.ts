/** Whether a process has `pid` (signal 0 checks without sending): EPERM is another user's process, which exists. */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
