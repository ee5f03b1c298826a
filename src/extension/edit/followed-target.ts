import * as vscode from "vscode";
import type { BlockText } from "../../core/edit/block-text";
import { BlockRegion } from "./block-region";
import { blockOf, type EditTarget } from "./edit-target";

/**
 * An edit's lines as they were when it was asked for, followed through the document's changes
 * until its review opens: lines typed or loaded from disk above them move them (the request and
 * the model list take a while, and the user goes on typing); a change in them leaves no target.
 */
export class FollowedTarget implements vscode.Disposable {
  readonly block: BlockText;
  private readonly region: BlockRegion;
  private touched = false;
  private readonly listening: vscode.Disposable;

  constructor(readonly original: EditTarget) {
    this.block = blockOf(original);
    this.region = new BlockRegion(original.document, original.startLine, this.block);
    this.listening = vscode.workspace.onDidChangeTextDocument((event) => {
      if (this.region.follow(event) === "inside") this.touched = true;
    });
  }

  /** Where the lines are now; undefined once something changed them. */
  current(): EditTarget | undefined {
    if (this.touched) return undefined;
    const startLine = this.region.startLine;
    return { ...this.original, startLine, endLine: startLine + this.block.lines.length - 1 };
  }

  dispose(): void {
    this.listening.dispose();
  }
}
