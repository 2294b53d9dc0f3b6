/**
 * A visitor on a slow link types into a form before the page's scripts have run (or a password manager
 * fills it in then). React's hydration leaves that text in the DOM but not in the components' state, so
 * the next render of a controlled field writes its state back — the empty value — and the text is gone
 * without a word. (React 19.3; React's own fix, facebook/react#33129, is behind a flag that is off.)
 *
 * Once the page has hydrated, each field whose value differs from the one rendered is replayed as the
 * browser's own event, as React's fix does, so that its `onChange` puts the value in state. React
 * notices a change by comparing the field's value with the one it last saw: a text field is first set
 * back to the rendered value through its own property (which React watches), then given the visitor's
 * value through the prototype's setter (which it does not), then the input event is sent; a checkbox
 * is set back and clicked.
 */
export function replayFieldsChangedBeforeHydration(root: ParentNode = document): number {
  // Every change is read first: replaying one renders its form again, which resets the others' DOM.
  const replays: (() => void)[] = [];
  for (const field of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(
    "input, textarea, select",
  )) {
    if (field.disabled) continue;
    if (field instanceof HTMLSelectElement) {
      // The rendered choice is the `selected` attribute (what `defaultSelected` reflects).
      const chosen = [...field.options].map((option) => option.selected);
      if (chosen.every((selected, index) => selected === field.options[index]!.hasAttribute("selected")))
        continue;
      replays.push(() => {
        for (const [index, option] of [...field.options].entries()) option.selected = chosen[index]!;
        field.dispatchEvent(new Event("change", { bubbles: true }));
      });
    } else if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio")) {
      const checked = field.checked;
      if (checked === field.defaultChecked) continue;
      // A radio turned off is replayed by the one of its group turned on.
      if (field.type === "radio" && !checked) continue;
      replays.push(() => {
        // Back to the other state, which React then sees; the click turns it as the visitor did.
        field.checked = !checked;
        field.click();
      });
    } else if (field.type !== "file" && field.type !== "hidden" && field.value !== field.defaultValue) {
      const value = field.value;
      replays.push(() => {
        field.value = field.defaultValue;
        const prototype =
          field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
        nativeSetter(prototype, "value").call(field, value);
        field.dispatchEvent(new Event("input", { bubbles: true }));
      });
    }
  }
  for (const replay of replays) replay();
  return replays.length;
}

function nativeSetter(prototype: object, property: "value"): (this: Element, value: unknown) => void {
  const setter = Object.getOwnPropertyDescriptor(prototype, property)?.set;
  if (!setter) throw new Error(`No ${property} setter on the field's prototype`);
  return setter as (this: Element, value: unknown) => void;
}
