/** The text the default model's CLIP vocabulary is trained on: the kind of words prompts use. */
export const TOKENIZER_CORPUS = `
a photo of a cat sitting on a wooden table in the morning light
a painting of a mountain landscape at sunset with a river and trees
a portrait of a woman with red hair, oil painting, highly detailed
a futuristic city at night with neon lights and flying cars, digital art
a watercolor illustration of a small house in a forest, soft colors
a dog running on the beach, golden hour, photograph, sharp focus
an astronaut riding a horse on the moon, cinematic lighting
a bowl of fruit on a kitchen table, still life, studio lighting
a castle on a hill under a starry sky, fantasy art, trending
a close up of a flower with water drops, macro photography
blurry, low quality, bad anatomy, watermark, text, deformed, ugly
the quick brown fox jumps over the lazy dog while the sun is shining
a robot reading a book in a library, warm light, concept art
a snowy street in a small town with people walking, winter evening
an abstract pattern of colorful shapes and lines, minimal design
a cup of coffee next to a laptop and a notebook on a desk
a sailing boat on the ocean with big waves and dark clouds
a bird flying over a green field with blue sky and white clouds
`;
