// The part of the `qrcode` package's API the QR code uses (the package ships no types, and
// @types/qrcode would pull @types/node into every type check).
declare const QRCode: {
  toString(
    text: string,
    options: { type: "svg"; errorCorrectionLevel?: "L" | "M" | "Q" | "H"; margin?: number },
  ): Promise<string>;
};
export default QRCode;
