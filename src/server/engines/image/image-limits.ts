/** What /v1/images/generations accepts: the route's schema and docs/server.md quote these. */
export const IMAGE_LIMITS = {
  minSize: 64,
  maxSize: 1024,
  sizeMultiple: 8,
  defaultSize: 512,
  minSteps: 1,
  maxSteps: 100,
  defaultSteps: 20,
  maxImages: 4,
  maxPromptChars: 4000,
  maxGuidanceScale: 30,
  defaultGuidanceScale: 7.5,
  maxSeed: 4294967295,
} as const;

export const IMAGE_EXTENSIONS = ["png", "jpg", "jpeg", "webp"] as const;
export type ImageExtension = (typeof IMAGE_EXTENSIONS)[number];
