/**
 * What a select sends when nothing was chosen (its empty option, a missing field, a form's number
 * conversion of ""): such a field asks for a choice instead of naming the code range an API takes.
 */
export function isNothingChosen(input: unknown): boolean {
  return (
    input === undefined ||
    input === null ||
    input === "" ||
    (typeof input === "number" && Number.isNaN(input))
  );
}
