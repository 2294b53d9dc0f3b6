import { ToastContainer } from "react-toastify";
import { TOASTS } from "./constants.ts";

/** The toasts' container, with the specification's placement and timing (spec §9); loaded lazily. */
export default function Toasts() {
  return (
    <ToastContainer
      position={TOASTS.position}
      autoClose={TOASTS.autoCloseMs}
      pauseOnHover={TOASTS.pauseOnHover}
      closeOnClick={TOASTS.closeOnClick}
    />
  );
}
