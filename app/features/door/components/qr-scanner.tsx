import { useEffect, useRef, useState } from "react";
import { FormNotice } from "~/components/ui/form-notice";

// Reads a receipt's QR code through the phone's camera: the browser's own BarcodeDetector where it
// has one (Android, ChromeOS, macOS), else the jsQR decoder, loaded only when a scan starts.

interface Detector {
  detect(video: HTMLVideoElement): Promise<string | undefined>;
}

interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats(): Promise<string[]>;
}

async function makeDetector(): Promise<Detector> {
  const Native = (window as unknown as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (Native) {
    try {
      if ((await Native.getSupportedFormats()).includes("qr_code")) {
        const detector = new Native({ formats: ["qr_code"] });
        return { detect: async (video) => (await detector.detect(video))[0]?.rawValue };
      }
    } catch {
      // Fall back on the decoder below.
    }
  }
  const { default: jsQR } = await import("jsqr");
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true })!;
  return {
    async detect(video) {
      const { videoWidth: width, videoHeight: height } = video;
      if (!width || !height) return undefined;
      // A smaller frame decodes faster on a cheap phone, and a QR code fills much of it anyway.
      const scale = Math.min(1, 720 / Math.max(width, height));
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      const frame = context.getImageData(0, 0, canvas.width, canvas.height);
      return jsQR(frame.data, frame.width, frame.height, { inversionAttempts: "dontInvert" })?.data;
    },
  };
}

export function QrScanner({ onCode, onClose }: { onCode: (text: string) => void; onClose: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const handle = useRef(onCode);
  handle.current = onCode;
  const [problem, setProblem] = useState<string>();
  const [starting, setStarting] = useState(true);

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    void (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
      } catch {
        setStarting(false);
        setProblem("The camera could not be opened. Allow this page to use the camera, or type the reference.");
        return;
      }
      if (stopped || !video.current) return stream.getTracks().forEach((track) => track.stop());
      video.current.srcObject = stream;
      await video.current.play().catch(() => undefined);
      const detector = await makeDetector();
      setStarting(false);
      const look = async () => {
        if (stopped || !video.current) return;
        const text = await detector.detect(video.current).catch(() => undefined);
        if (text && !stopped) return handle.current(text);
        timer = setTimeout(() => void look(), 150);
      };
      void look();
    })();
    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, []);

  return (
    <div className="door-scanner">
      <video ref={video} muted playsInline aria-label="What the camera sees" />
      {starting ? (
        <p className="spinner" role="status">
          <span className="spinner-ring" aria-hidden="true" /> Opening the camera…
        </p>
      ) : problem ? (
        <FormNotice ok={false}>{problem}</FormNotice>
      ) : (
        <p role="status">Point the camera at the QR code on the receipt.</p>
      )}
      <button type="button" className="button button-secondary" onClick={onClose}>
        Stop scanning
      </button>
    </div>
  );
}
