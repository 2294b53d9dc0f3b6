import { FORWARD_EVENT_TYPES } from "@pressguard/domain";

/** The event types a target receives; none ticked means every type. */
export function EventPicker({
  idPrefix,
  value,
  onChange,
}: {
  idPrefix: string;
  value: readonly string[];
  onChange: (events: string[]) => void;
}) {
  function toggle(type: string, checked: boolean) {
    onChange(checked ? [...value, type] : value.filter((entry) => entry !== type));
  }
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">Events</legend>
      <p className="mt-1 text-xs text-slate-500">Leave all unticked to receive every event.</p>
      <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
        {FORWARD_EVENT_TYPES.map((type) => (
          <label
            key={type.value}
            htmlFor={`${idPrefix}-${type.value}`}
            className="flex items-center gap-2 text-sm"
          >
            <input
              id={`${idPrefix}-${type.value}`}
              type="checkbox"
              className="h-4 w-4 rounded border-slate-300"
              checked={value.includes(type.value)}
              onChange={(event) => toggle(type.value, event.target.checked)}
            />
            {type.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
