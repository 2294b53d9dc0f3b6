import { describe, expect, it } from "vitest";
import { addAttachments, formatFileSize } from "./attachment-field.tsx";

const file = (name: string, size: number, lastModified = 1) =>
  new File([new Uint8Array(size)], name, { lastModified });

describe("the report form's files", () => {
  it("keeps up to 5 accepted files and names each refused one with the reason", () => {
    const picked = [
      file("a.txt", 10),
      file("setup.exe", 10),
      file("b.png", 10),
      file("empty.txt", 0),
      file("c.zip", 10),
      file("d.har", 10),
      file("e.pdf", 10),
      file("f.txt", 10),
    ];
    const { files, errors } = addAttachments([], picked);
    expect(files.map((item) => item.name)).toEqual(["a.txt", "b.png", "c.zip", "d.har", "e.pdf"]);
    expect(errors).toEqual([
      expect.stringMatching(/^setup\.exe: This kind of file is not accepted\./),
      "empty.txt: The file is empty.",
      "f.txt: A report has at most 5 attachments.",
    ]);
  });

  it("refuses a file over 20 MB and attaches the same file once", () => {
    const big = { name: "big.zip", size: 20 * 1024 * 1024 + 1, lastModified: 1 } as File;
    const same = file("a.txt", 10);
    const { files, errors } = addAttachments([same], [big, file("a.txt", 10)]);
    expect(files).toEqual([same]);
    expect(errors).toEqual(["big.zip: An attachment must be at most 20 MB."]);
  });

  it("shows sizes as people read them", () => {
    expect(formatFileSize(900)).toBe("900 B");
    expect(formatFileSize(3000)).toBe("3 KB");
    expect(formatFileSize(20 * 1024 * 1024)).toBe("20.0 MB");
  });
});
