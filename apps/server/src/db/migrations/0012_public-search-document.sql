DROP INDEX "vulnerabilities_search_idx";--> statement-breakpoint
ALTER TABLE "vulnerabilities" ADD COLUMN "search_document" "tsvector" DEFAULT ''::tsvector NOT NULL;--> statement-breakpoint
-- The public search's document of one record: the names and slugs of every product with a range on it
-- (weight A, so a product match ranks first) and its title and description.
CREATE FUNCTION "vulnerability_search_document"(target_id uuid, target_title text, target_description text)
RETURNS tsvector LANGUAGE sql STABLE AS $$
  SELECT setweight(to_tsvector('simple', coalesce((
      SELECT string_agg(coalesce(p.name, '') || ' ' || p.slug, ' ' ORDER BY p.id)
      FROM products p
      WHERE p.id IN (SELECT ar.product_id FROM affected_ranges ar WHERE ar.vulnerability_id = target_id)
    ), '')), 'A')
    || to_tsvector('simple', coalesce(target_title, '') || ' ' || coalesce(target_description, ''))
$$;--> statement-breakpoint
CREATE FUNCTION "vulnerabilities_search_document_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_document := vulnerability_search_document(NEW.id, NEW.title, NEW.description);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "vulnerabilities_search_document" BEFORE INSERT OR UPDATE OF title, description, product_id
  ON "vulnerabilities" FOR EACH ROW EXECUTE FUNCTION vulnerabilities_search_document_trigger();--> statement-breakpoint
-- Ranges are written in bulk (the import deletes and re-inserts a batch's ranges): one statement-level
-- refresh per statement, from its transition table, writing only the documents that change.
CREATE FUNCTION "affected_ranges_search_documents_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed uuid[];
BEGIN
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
$$;--> statement-breakpoint
CREATE TRIGGER "affected_ranges_search_documents_insert" AFTER INSERT ON "affected_ranges"
  REFERENCING NEW TABLE AS new_ranges
  FOR EACH STATEMENT EXECUTE FUNCTION affected_ranges_search_documents_trigger();--> statement-breakpoint
CREATE TRIGGER "affected_ranges_search_documents_update" AFTER UPDATE ON "affected_ranges"
  REFERENCING OLD TABLE AS old_ranges NEW TABLE AS new_ranges
  FOR EACH STATEMENT EXECUTE FUNCTION affected_ranges_search_documents_trigger();--> statement-breakpoint
CREATE TRIGGER "affected_ranges_search_documents_delete" AFTER DELETE ON "affected_ranges"
  REFERENCING OLD TABLE AS old_ranges
  FOR EACH STATEMENT EXECUTE FUNCTION affected_ranges_search_documents_trigger();--> statement-breakpoint
CREATE FUNCTION "products_search_documents_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE vulnerabilities v SET search_document = vulnerability_search_document(v.id, v.title, v.description)
  WHERE v.id IN (SELECT ar.vulnerability_id FROM affected_ranges ar WHERE ar.product_id = NEW.id);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "products_search_documents" AFTER UPDATE OF name, slug ON "products" FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.slug IS DISTINCT FROM NEW.slug)
  EXECUTE FUNCTION products_search_documents_trigger();--> statement-breakpoint
UPDATE "vulnerabilities" SET "search_document" = vulnerability_search_document(id, title, description);--> statement-breakpoint
CREATE INDEX "vulnerabilities_search_document_idx" ON "vulnerabilities" USING gin ("search_document");--> statement-breakpoint
ALTER TABLE "vulnerabilities" DROP COLUMN "search";
