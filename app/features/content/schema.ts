import { z } from "zod";
import { imageSchema } from "~/lib/images";
import { siteSchema } from "~/lib/site";
import { videoSchema } from "~/lib/video";

// Schemas for the charity's editable texts in content/<name>/content.json.
// They are browser-safe: pages import the inferred types, the server validates the files.

const text = z.string().trim().min(1);

export const missionSchema = z.object({
  missionStatement: text,
  author: text,
});
export type Mission = z.infer<typeof missionSchema>;

export const testimonialSchema = z.object({
  name: text,
  job: text,
  image: imageSchema,
  testimonial: text,
});
export type Testimonial = z.infer<typeof testimonialSchema>;

export const galleryImageSchema = z.object({
  image: imageSchema,
  description: text,
});
export type GalleryImage = z.infer<typeof galleryImageSchema>;

export const projectSchema = z.object({
  slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "must be lower-case words joined by hyphens"),
  title: text,
  imagePreview: imageSchema,
  imageBanner: imageSchema,
  info: text,
  col1Text: text,
  col2Text: text,
  comingSoon: z.boolean().default(false),
  testimonial: testimonialSchema.optional(),
  galleryImages: z.array(galleryImageSchema).default([]),
});
export type Project = z.infer<typeof projectSchema>;

export const carouselSchema = z.object({
  images: z.array(imageSchema).min(1),
  delay: z.number().positive().default(10),
});
export type Carousel = z.infer<typeof carouselSchema>;

export const teamMemberSchema = z.object({
  name: text,
  position: text,
  quote: text,
  image: imageSchema,
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const trusteeSchema = z.object({
  name: text,
  position: text,
  job: text,
});
export type Trustee = z.infer<typeof trusteeSchema>;

export const homeSchema = z.object({
  title: text,
  subtitle: text,
  quote: text,
  imageWheel: carouselSchema,
  activeProjectsTitle: text,
  activeProjects: z.array(projectSchema),
  previousProjectsTitle: text,
  previousProjects: z.array(projectSchema),
  mission: missionSchema,
  /** The video block: its heading, the caption under the picture, the picture shown before play, and its own video (the site's defaultVideo otherwise). */
  video: z.object({ title: text, text: text, poster: imageSchema, source: videoSchema.optional() }),
});
export type HomeContent = z.infer<typeof homeSchema>;

export const aboutSchema = z.object({
  title: text,
  description: text,
  /** The header's video: the caption under it, the picture shown before play, and its own video (the site's defaultVideo otherwise). */
  video: z.object({ caption: text, poster: imageSchema, source: videoSchema.optional() }),
  col1Text: text,
  col2Text: text,
  mission: missionSchema,
  team: z.array(teamMemberSchema).min(1),
  trustees: z.array(trusteeSchema).min(1),
});
export type AboutContent = z.infer<typeof aboutSchema>;

export const contactSchema = z.object({
  title: text,
  description: text,
  image: imageSchema,
  col1Text: text,
  col2Text: text,
});
export type ContactContent = z.infer<typeof contactSchema>;

export const volunteeringSchema = z.object({
  title: text,
  description: text,
  image: imageSchema,
  col1Text: text,
  col2Text: text,
  /** The heading above the sign-up form ("Join us in 2025"): the charity changes it as the years go by. */
  formTitle: text,
  formIntro: text,
});
export type VolunteeringContent = z.infer<typeof volunteeringSchema>;

export const fundraisingSchema = z.object({
  title: text,
  description: text,
  image: imageSchema,
  col1Text: text,
  col2Text: text,
});
export type FundraisingContent = z.infer<typeof fundraisingSchema>;

export const paymentSchema = z.object({
  title: text,
  description: text,
  donationText: text,
  donationSuccessTitle: text,
  donationGratitudeText: text,
  paymentSuccessImage: imageSchema,
  presetAmounts: z.array(z.number().int().positive()).min(1),
});
export type PaymentContent = z.infer<typeof paymentSchema>;

/**
 * Each content file: its folder name under content/, its page key (call 2 of docs/specification.md,
 * section 7) and its schema.
 */
export const contentFiles = {
  site: { pageKey: "SiteSettings", schema: siteSchema },
  home: { pageKey: "HomePage", schema: homeSchema },
  about: { pageKey: "AboutPage", schema: aboutSchema },
  contact: { pageKey: "ContactPage", schema: contactSchema },
  volunteering: { pageKey: "VolunteeringPage", schema: volunteeringSchema },
  fundraising: { pageKey: "FundraisingPage", schema: fundraisingSchema },
  payment: { pageKey: "PaymentPage", schema: paymentSchema },
} as const;

export type ContentName = keyof typeof contentFiles;
export type ContentOf<N extends ContentName> = z.infer<(typeof contentFiles)[N]["schema"]>;
