import { writeFileSync } from "node:fs";

/** Writes a Jupyter notebook (.ipynb, Python) whose cells are `cells`: code, or markdown when marked so. */
export function writeNotebook(path: string, cells: readonly (string | { markdown: string })[]): void {
  const source = (text: string) => text.split(/(?<=\n)/);
  const notebook = {
    cells: cells.map((cell) =>
      typeof cell === "string"
        ? { cell_type: "code", execution_count: null, metadata: {}, outputs: [], source: source(cell) }
        : { cell_type: "markdown", metadata: {}, source: source(cell.markdown) },
    ),
    metadata: { kernelspec: { display_name: "Python 3", language: "python", name: "python3" }, language_info: { name: "python" } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  writeFileSync(path, JSON.stringify(notebook, null, 1));
}
