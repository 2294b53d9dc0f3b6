// @vitest-environment happy-dom
import { act, useState } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { replayFieldsChangedBeforeHydration } from "./fields-changed-before-hydration.ts";

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

beforeAll(() => {
  globalThis.IS_REACT_ACT_ENVIRONMENT = true;
});

/** A form of controlled fields, as the app's forms are, with a line that shows their state. */
function Form() {
  const [name, setName] = useState("");
  const [text, setText] = useState("");
  const [agreed, setAgreed] = useState(false);
  const [kind, setKind] = useState("plugin");
  return (
    <form>
      <input aria-label="name" value={name} onChange={(event) => setName(event.target.value)} />
      <textarea aria-label="text" value={text} onChange={(event) => setText(event.target.value)} />
      <input
        aria-label="agreed"
        type="checkbox"
        checked={agreed}
        onChange={(event) => setAgreed(event.target.checked)}
      />
      <select aria-label="kind" value={kind} onChange={(event) => setKind(event.target.value)}>
        <option value="plugin">Plugin</option>
        <option value="theme">Theme</option>
      </select>
      <output>{JSON.stringify({ name, text, agreed, kind })}</output>
    </form>
  );
}

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = "";
});

const field = <T extends Element>(label: string) => document.querySelector<T>(`[aria-label="${label}"]`)!;

/** The server's HTML, then what the visitor did before the scripts ran, then hydration. */
function hydrateAfterTyping(type: () => void) {
  const container = document.createElement("div");
  container.innerHTML = renderToString(<Form />);
  document.body.append(container);
  type();
  act(() => {
    root = hydrateRoot(container, <Form />);
  });
}

function typeEverything() {
  field<HTMLInputElement>("name").value = "Jane";
  field<HTMLTextAreaElement>("text").value = "Typed on a slow link";
  field<HTMLInputElement>("agreed").checked = true;
  field<HTMLSelectElement>("kind").value = "theme";
}

describe("fields changed before hydration", () => {
  it("are lost from the state without the replay (the defect it mends)", () => {
    hydrateAfterTyping(typeEverything);
    expect(document.querySelector("output")?.textContent).toBe(
      JSON.stringify({ name: "", text: "", agreed: false, kind: "plugin" }),
    );
  });

  it("reach the state of their controlled fields, which then render them", () => {
    hydrateAfterTyping(typeEverything);
    act(() => {
      expect(replayFieldsChangedBeforeHydration(document)).toBe(4);
    });
    expect(document.querySelector("output")?.textContent).toBe(
      JSON.stringify({ name: "Jane", text: "Typed on a slow link", agreed: true, kind: "theme" }),
    );
    expect(field<HTMLInputElement>("name").value).toBe("Jane");
    expect(field<HTMLInputElement>("agreed").checked).toBe(true);
  });

  it("leaves untouched fields alone", () => {
    hydrateAfterTyping(() => {});
    act(() => {
      expect(replayFieldsChangedBeforeHydration(document)).toBe(0);
    });
    expect(document.querySelector("output")?.textContent).toBe(
      JSON.stringify({ name: "", text: "", agreed: false, kind: "plugin" }),
    );
  });
});
