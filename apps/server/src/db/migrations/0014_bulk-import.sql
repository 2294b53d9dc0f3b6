ALTER TABLE "products" ADD COLUMN "directory_source_hash" text;--> statement-breakpoint
ALTER TABLE "vulnerabilities" ADD COLUMN "source_hash" text;--> statement-breakpoint
-- Bulk imports (db/import.ts) write a record's search document and product kind in the same statement
-- that writes the record, from the ranges they are about to insert, and set `pressguard.bulk_import`
-- for their transaction: the row and range triggers then stand aside instead of computing each
-- document twice (before the ranges exist, then again from them) and rewriting every row once more.
-- Every other writer keeps the triggers. Product renames and kind changes stay on their triggers.
CREATE OR REPLACE FUNCTION "vulnerabilities_search_document_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('pressguard.bulk_import', true) = 'on' THEN
    RETURN NEW;
  END IF;
  NEW.search_document := vulnerability_search_document(NEW.id, NEW.title, NEW.description);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "vulnerabilities_product_kind_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('pressguard.bulk_import', true) = 'on' THEN
    RETURN NEW;
  END IF;
  NEW.product_kind := (SELECT p.kind FROM products p WHERE p.id = NEW.product_id);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "affected_ranges_search_documents_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed uuid[];
BEGIN
  IF current_setting('pressguard.bulk_import', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    changed := array(SELECT DISTINCT vulnerability_id FROM new_ranges);
  ELSIF TG_OP = 'DELETE' THEN
    changed := array(SELECT DISTINCT vulnerability_id FROM old_ranges);
  ELSE
    changed := array(SELECT vulnerability_id FROM new_ranges UNION SELECT vulnerability_id FROM old_ranges);
  END IF;
  UPDATE vulnerabilities v SET search_document = d.document
  FROM (
    SELECT x.id, vulnerability_search_document(x.id, x.title, x.description) AS document
    FROM vulnerabilities x WHERE x.id = ANY (changed)
  ) d
  WHERE v.id = d.id AND v.search_document IS DISTINCT FROM d.document;
  RETURN NULL;
END
$$;
