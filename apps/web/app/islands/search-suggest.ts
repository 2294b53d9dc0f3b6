/**
 * The database search box's suggestions: the one script a reading page loads (decision 007 allows an
 * island of JavaScript within its 100 KB), a few KB without React. Without it the box is a plain GET
 * form. The WAI-ARIA combobox pattern: the input owns a listbox of products, arrows move through them
 * (aria-activedescendant), Enter opens the chosen product, Escape closes the list, and a polite live
 * region says how many suggestions there are.
 */
interface Suggestion {
  name: string;
  kind: string;
  slug: string;
  platform: string;
  vulnerabilities: number;
  unfixed: number;
}

const DELAY_MS = 150;
const MIN_LENGTH = 2;
const KIND_LABELS: Record<string, string> = { plugin: "plugin", theme: "theme", core: "WordPress core" };

const productPath = (product: Suggestion) =>
  `/database/${encodeURIComponent(product.platform)}/${encodeURIComponent(product.kind)}/${encodeURIComponent(product.slug)}/vulnerabilities/vdp`;

const countsOf = (product: Suggestion) =>
  product.vulnerabilities === 0
    ? "no known vulnerability"
    : `${product.vulnerabilities} known, ${product.unfixed} without a fix`;

function enhance(input: HTMLInputElement) {
  const listbox = document.getElementById(input.getAttribute("aria-controls") ?? "");
  const status = document.getElementById(input.dataset.suggestStatus ?? "");
  if (!listbox || !status) return;
  let suggestions: Suggestion[] = [];
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: AbortController | null = null;

  const optionId = (index: number) => `${listbox.id}-${index}`;

  function close() {
    listbox!.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  }

  function select(index: number) {
    active = index;
    for (const [position, option] of [...listbox!.children].entries()) {
      option.setAttribute("aria-selected", String(position === index));
    }
    if (index >= 0) input.setAttribute("aria-activedescendant", optionId(index));
    else input.removeAttribute("aria-activedescendant");
  }

  function show(found: Suggestion[]) {
    suggestions = found;
    listbox!.replaceChildren(
      ...found.map((product, index) => {
        const option = document.createElement("div");
        option.id = optionId(index);
        option.setAttribute("role", "option");
        option.setAttribute("aria-selected", "false");
        option.className = "search-suggestion";
        const name = document.createElement("span");
        name.className = "search-suggestion-name";
        name.textContent = product.name;
        const detail = document.createElement("span");
        detail.className = "search-suggestion-detail";
        detail.textContent = `${KIND_LABELS[product.kind] ?? product.kind} · ${countsOf(product)}`;
        option.append(name, detail);
        option.setAttribute("aria-label", `${name.textContent}, ${detail.textContent}`);
        // mousedown keeps the focus in the input; click then opens the product.
        option.addEventListener("mousedown", (event) => event.preventDefault());
        option.addEventListener("click", () => window.location.assign(productPath(product)));
        return option;
      }),
    );
    active = -1;
    if (found.length === 0) {
      close();
      status!.textContent = input.value.trim().length >= MIN_LENGTH ? "No product suggested." : "";
      return;
    }
    listbox!.hidden = false;
    input.setAttribute("aria-expanded", "true");
    status!.textContent = `${found.length} ${found.length === 1 ? "product" : "products"} suggested: use the up and down arrows to choose one, Enter to open it.`;
  }

  async function suggest() {
    const text = input.value.trim();
    pending?.abort();
    if (text.length < MIN_LENGTH) {
      show([]);
      return;
    }
    pending = new AbortController();
    try {
      const response = await fetch(`/api/v1/autocomplete?q=${encodeURIComponent(text)}`, {
        signal: pending.signal,
        headers: { accept: "application/json" },
      });
      if (!response.ok) return;
      const body = (await response.json()) as { products: Suggestion[] };
      if (input.value.trim() === text) show(body.products);
    } catch {
      // Aborted by newer typing, or offline: the form still searches.
    }
  }

  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(suggest, DELAY_MS);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (suggestions.length === 0) return;
      event.preventDefault();
      if (listbox.hidden) show(suggestions);
      // From the text (-1) through each suggestion and back to the text.
      const last = suggestions.length - 1;
      if (event.key === "ArrowDown") select(active >= last ? -1 : active + 1);
      else select(active <= -1 ? last : active - 1);
    } else if (event.key === "Enter" && active >= 0 && !listbox.hidden) {
      const chosen = suggestions[active];
      if (!chosen) return;
      event.preventDefault();
      window.location.assign(productPath(chosen));
    } else if (event.key === "Escape" && !listbox.hidden) {
      event.preventDefault();
      close();
    }
  });
  input.addEventListener("blur", close);
}

for (const input of document.querySelectorAll<HTMLInputElement>("input[data-suggest]")) enhance(input);
