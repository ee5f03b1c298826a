import assert from "node:assert/strict";
import { commitBoxText, commitMessages, styleHints, subjectsOf } from "../../../../src/core/scm/commit-prompt";

describe("the commit message request and answer", () => {
  it("carries the recent subjects, their style, the team's rules and the diff", () => {
    const subjects = ["fix: round prices to cents", "feat(cart): add quantities", "fix: empty cart total"];
    const [system, user] = commitMessages({ diff: "diff --git a/x b/x\n", staged: true, recentSubjects: subjects, instructions: "Mention the ticket as [WISP-n].", branch: "main" });
    assert.match(system!.content, /Conventional Commits type as they do \(fix:, feat:\)/);
    assert.match(system!.content, /The team's rules for commit messages \(they come first\):\nMention the ticket as \[WISP-n\]\./);
    assert.ok(user!.content.includes("- fix: round prices to cents\n- feat(cart): add quantities"));
    assert.ok(user!.content.includes("The staged changes, as a diff:\ndiff --git a/x b/x"));
    assert.ok(user!.content.includes("Branch: main"));
  });

  it("says when nothing was staged, and when the repository has no commits", () => {
    const [, user] = commitMessages({ diff: "d", staged: false, recentSubjects: [], instructions: "" });
    assert.ok(user!.content.includes("nothing is staged: all of them"));
    assert.ok(user!.content.includes("This repository has no commits yet."));
    assert.deepEqual(styleHints([]), []);
  });

  it("carries what the user had written in the box, to build on; nothing when the box was empty", () => {
    const [, user] = commitMessages({ diff: "d", staged: true, recentSubjects: [], instructions: "", draft: "  Fixes #42\n" });
    assert.ok(user!.content.includes("What I had written in the commit box, to keep (its references, its wording where it fits) and complete into the message:\nFixes #42\n"), user!.content);
    const [, empty] = commitMessages({ diff: "d", staged: true, recentSubjects: [], instructions: "", draft: "" });
    assert.ok(!empty!.content.includes("commit box"));
  });

  it("plain subjects get no prefix hint, only their length", () => {
    assert.deepEqual(styleHints(["Add cart", "Remove the old checkout page", "Fix totals"]), ["Keep the subject about 10 characters long, as theirs are (never over 72)."]);
  });

  it("what goes into the commit box: no fences, quotes or label", () => {
    assert.equal(commitBoxText("```\nfix: a\n\nbody\n```", true), "fix: a\n\nbody");
    assert.equal(commitBoxText("```text\nfix: a", false), "fix: a");
    assert.equal(commitBoxText('"fix: quoted"\n', true), "fix: quoted");
    assert.equal(commitBoxText("Commit message: feat: b", true), "feat: b");
    assert.equal(commitBoxText("fix: keep \"inner\" quotes", true), 'fix: keep "inner" quotes');
  });

  it("a reasoning model's thinking, a 'Here is a commit message:' line and an explanation after the fence stay out of the box", () => {
    const thinking = "<think>\nThe diff adds a sum function, so feat.\n</think>\n\nfeat: add sum";
    assert.equal(commitBoxText(thinking, true), "feat: add sum");
    // While the model thinks, nothing is written (the box keeps what it held).
    assert.equal(commitBoxText("<think>\nThe diff adds", false), "");
    assert.equal(commitBoxText("<think>\nThe diff adds a sum function and", true), "");
    const chatty = "Here is a commit message for these changes:\n\n```\nfeat: add sum\n\nAdds it.\n```\n\nThis follows Conventional Commits.";
    assert.equal(commitBoxText(chatty, true), "feat: add sum\n\nAdds it.");
    assert.equal(commitBoxText("Here is a commit message for these changes:\n\n```\nfeat: add sum\n", false), "feat: add sum\n");
    assert.equal(commitBoxText("Sure! Here's a concise commit message:\n\nfix: count quantities", true), "fix: count quantities");
    // A subject of the user's own words is kept.
    assert.equal(commitBoxText("docs: explain `here` in the README", true), "docs: explain `here` in the README");
  });

  it("a body the model starts on the second line is moved below a blank line, so git's subject is the first line alone", () => {
    assert.equal(commitBoxText("fix: count quantities\nEach line's price was added once.\n- totals in cents", true), "fix: count quantities\n\nEach line's price was added once.\n- totals in cents");
    assert.equal(commitBoxText("fix: count quantities\nEach", false), "fix: count quantities\n\nEach");
    assert.equal(commitBoxText("fix: count quantities\n", false), "fix: count quantities\n");
    assert.equal(commitBoxText("fix: a\n\nbody", true), "fix: a\n\nbody");
    assert.equal(commitBoxText("fix: a\n   \nbody", true), "fix: a\n   \nbody");
  });

  it("a gitmoji history (emoji or :code:) is said to start with one, as Conventional Commits' is said", () => {
    const hints = styleHints(["✨ Add the cart total", "🐛 Round prices to cents", ":recycle: Split the checkout", "♻️ Move the tax rate", "Bump version"]);
    assert.equal(hints[0], "Start the subject with an emoji for the kind of change (gitmoji), as they do (✨ 🐛 :recycle: ♻️).");
    assert.equal(styleHints(["Add cart", "✨ Add tax", "Fix totals"]).length, 1, "one subject in three is no habit");
  });

  it("a history of subjects over 72 characters does not ask for one", () => {
    const long = ["x".repeat(90), "y".repeat(100), "z".repeat(30)];
    const [hint] = styleHints(long);
    assert.equal(hint, "Keep the subject under 72 characters, though theirs run longer: what does not fit goes in the body.");
  });

  it("subjects are the first lines", () => {
    assert.deepEqual(subjectsOf(["a\n\nbody", " b ", ""]), ["a", "b"]);
  });
});
