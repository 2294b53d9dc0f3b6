import { FORWARD_FORMATS, type ForwardTarget, type ForwardTargetUpdate } from "@pressguard/domain";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useApiClient } from "../../lib/api/client.ts";
import { messageOf } from "../../lib/errors.ts";
import { INPUT_CLASS } from "../../ui/form-field.tsx";
import { toast } from "../../ui/toast.ts";
import { forwardingApi, targetsKey } from "./api.ts";
import { EventPicker } from "./event-picker.tsx";

/** Changes which events a target receives and, for a webhook, its body format. */
export function TargetSettings({ target, onDone }: { target: ForwardTarget; onDone: () => void }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const [events, setEvents] = useState<string[]>(target.events);
  const [format, setFormat] = useState<string>(target.format);
  const [busy, setBusy] = useState(false);
  const formatId = `forward-format-${target.id}`;

  async function save() {
    setBusy(true);
    try {
      await forwardingApi.update(client, target.id, {
        // The picker offers only the listed event types.
        events: events as NonNullable<ForwardTargetUpdate["events"]>,
        ...(target.kind === "webhook" && { format: format as ForwardTarget["format"] }),
      });
      toast.success("Saved.");
      await queryClient.invalidateQueries({ queryKey: targetsKey });
      onDone();
    } catch (error) {
      toast.error(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-4">
      <EventPicker idPrefix={`forward-edit-${target.id}`} value={events} onChange={setEvents} />
      {target.kind === "webhook" && (
        <div className="max-w-xs">
          <label htmlFor={formatId} className="block text-sm font-medium text-slate-700">
            Format
          </label>
          <select
            id={formatId}
            className={INPUT_CLASS}
            value={format}
            onChange={(event) => setFormat(event.target.value)}
          >
            {FORWARD_FORMATS.map((entry) => (
              <option key={entry.value} value={entry.value}>
                {entry.label}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="flex gap-2">
        <button type="button" className="btn-primary" disabled={busy} onClick={save}>
          {busy ? "Saving…" : "Save"}
        </button>
        <button type="button" className="btn-secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </div>
  );
}
