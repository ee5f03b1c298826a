import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withoutCommentLines } from "../../../../src/core/scm/commit-draft";

describe("core/scm: the commit box's draft without a template's comment lines (real git)", () => {
  let root: string;
  const git = (args: string[], input?: string) => execFileSync("git", args, { cwd: root, encoding: "utf8", input });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "wisp-comment-char-"));
    git(["init", "--quiet"]);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  // What VS Code put in the box: the template with its `#` lines taken out, nothing else.
  const template = "feat(scope):\n\n; Why is this change needed?\n;   Wrap the body at 72 characters.\nRefs #42\n  ; indented: not a comment for git\n";

  it("core.commentChar ';': the lines git takes as comments are left out, as git stripspace --strip-comments does", () => {
    git(["config", "core.commentChar", ";"]);
    const commentChar = git(["config", "--get", "core.commentChar"]).trim();
    const draft = withoutCommentLines(template, commentChar);
    assert.doesNotMatch(draft, /Why is this change needed|Wrap the body/);
    assert.equal(draft.trim(), git(["stripspace", "--strip-comments"], template).trim());
  });

  it("the default and auto: nothing more is taken out (VS Code took the # lines; a # line left is the user's)", () => {
    for (const setting of [undefined, "auto", "#"]) assert.equal(withoutCommentLines("#42 fix the cart\n\nbody", setting), "#42 fix the cart\n\nbody", String(setting));
  });
});
