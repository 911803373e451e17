/** The enrolment QR code: an SVG document, as Supabase Auth sends it (supabase-js makes it a data URL). */
// @ts-types="./qrcode.d.ts"
import QRCode from "qrcode";

/** The SVG of a QR code holding `text`. */
export async function qrSvg(text: string): Promise<string> {
  return await QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}
