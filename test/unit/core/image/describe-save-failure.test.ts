import assert from "node:assert/strict";
import { describeSaveFailure } from "../../../../src/core/image/describe-save-failure";

describe("a failed image save as the user reads it", () => {
  it("names the folder and the reason, never the temporary file", () => {
    const denied = describeSaveFailure({ code: "NoPermissions", message: "EACCES: permission denied, open '/w/images/.a-cat-20261130-101010.png.1a2b3c4d.part'" }, "images");
    assert.equal(denied, "Could not save the image in images: permission denied.");
    assert.equal(describeSaveFailure({ code: "Unknown", message: "EROFS: read-only file system, mkdir '/mnt/ro/images'" }, "/mnt/ro/images"), "Could not save the image in /mnt/ro/images: the file system is read-only.");
    assert.equal(describeSaveFailure({ code: "Unknown", message: "ENOSPC: no space left on device, write" }, "images"), "Could not save the image in images: the disk is full.");
  });

  it("says when a file stands where the folder should be", () => {
    assert.equal(describeSaveFailure({ code: "FileNotADirectory", message: "ENOTDIR: not a directory, open '/w/images/.x.png.00000000.part'" }, "images"), "Could not save the image in images: a file of that name is in the way of the folder.");
    assert.equal(describeSaveFailure({ code: "FileExists", message: "EEXIST: file already exists, mkdir '/w/images'" }, "images"), "Could not save the image in images: a file of that name is in the way of the folder.");
  });

  it("keeps another reason's words, without the error's class or the temporary file's name", () => {
    assert.equal(describeSaveFailure({ code: "Unavailable", message: "Unavailable (FileSystemError): the remote host went away '/w/images/.x.png.00000000.part'" }, "images"), "Could not save the image in images: the remote host went away");
    assert.equal(describeSaveFailure({ message: "" }, "images"), "Could not save the image in images.");
  });
});
