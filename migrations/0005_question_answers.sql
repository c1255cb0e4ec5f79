-- Questions beyond yes/no: a member's answers to choice and text questions, and an entry's
-- answers to the questions asked once per entry (of every kind: a yes/no one as "yes"/"no").
-- Each a JSON object, question id -> answer; '{}' for none (every entry before this).

ALTER TABLE members ADD COLUMN answer_values TEXT NOT NULL DEFAULT '{}';
ALTER TABLE entries ADD COLUMN answer_values TEXT NOT NULL DEFAULT '{}';
